import { Badge, Image, Text } from "@mantine/core";
import type { FieldDef } from "../../../resources/define";
import { dictLabel, type DictOption } from "../../../resources/dicts";
import { formatFen, formatTime } from "~/lib/format";

type Row = Record<string, unknown>;

/** How a field's value reads in a list cell. */
export function FieldValue({ field, record, dicts }: { field: FieldDef; record: Row; dicts: Record<string, DictOption[]> }) {
  const value = record[field.name];
  if (value === null || value === undefined || value === "") return <Text c="dimmed" size="sm">—</Text>;
  switch (field.type) {
    case "enum": {
      const label = dictLabel(dicts, field.dict ?? "", value);
      // Spec §3: status 0 is a grey tag, 1 a normal one.
      const grey = field.dict === "status" && String(value) === "0";
      return (
        <Badge variant="light" color={grey ? "gray" : "brand"} radius="sm">
          {label}
        </Badge>
      );
    }
    case "boolean":
      return <>{value ? "是" : "否"}</>;
    case "money":
      return <>{formatFen(Number(value))}</>;
    case "datetime":
      return <>{formatTime(value as number)}</>;
    case "relation":
    case "treeParent":
      return <>{String(record[`${field.name}Label`] ?? value)}</>;
    case "image":
      return <Image src={String(value)} alt="" h={32} w={32} fit="cover" radius="sm" />;
    case "longText":
      return (
        <Text size="sm" lineClamp={1} maw={260}>
          {String(value)}
        </Text>
      );
    default:
      return <>{String(value)}</>;
  }
}
