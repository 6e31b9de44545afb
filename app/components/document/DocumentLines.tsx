import { Table } from "@mantine/core";
import type { FieldDef } from "../../../resources/define";
import type { DictOption } from "../../../resources/dicts";
import { quantityToThousandths } from "../../../resources/quantity";
import { FieldValue } from "~/components/resource/cells";
import { unitsText } from "./lines";

type Row = Record<string, unknown>;

/**
 * A line's value in the smallest unit its column sums in: money is read in fen, a quantity as its decimal (decision
 * 067), summed in thousandths so 8.5 + 0.25 stays exact.
 */
const units = (f: FieldDef, value: unknown) => ((f.type as string) === "quantity" ? quantityToThousandths(Number(value ?? 0)) : Number(value ?? 0));

/** A document's lines as read (the detail page, the print view), with the column sums under them. */
export function DocumentLines({ fields, lines, totalled, dicts, className }: { fields: FieldDef[]; lines: Row[]; totalled: string[]; dicts: Record<string, DictOption[]>; className?: string }) {
  const numeric = (f: FieldDef) => f.type === "money" || f.type === "number" || (f.type as string) === "quantity";
  return (
    <Table withTableBorder withColumnBorders verticalSpacing={6} className={className} data-testid="document-lines">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={56}>行号</Table.Th>
          {fields.map((f) => (
            <Table.Th key={f.name} ta={numeric(f) ? "right" : undefined}>
              {f.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((line, i) => (
          <Table.Tr key={String(line.id ?? i)}>
            <Table.Td>{i + 1}</Table.Td>
            {fields.map((f) => (
              <Table.Td key={f.name} ta={numeric(f) ? "right" : undefined}>
                <FieldValue field={f} record={line} dicts={dicts} />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
      {totalled.length > 0 && (
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>合计</Table.Th>
            {fields.map((f) => (
              <Table.Th key={f.name} ta="right" data-testid={totalled.includes(f.name) ? `total-${f.name}` : undefined}>
                {totalled.includes(f.name) ? unitsText(f, lines.reduce((sum, line) => sum + units(f, line[f.name]), 0)) : ""}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      )}
    </Table>
  );
}
