import { Button, Table, Text } from "@mantine/core";
import type { FieldDef } from "../../../resources/define";
import { lineInputName } from "../../../resources/document-form";
import { IconPlus } from "~/components/icons";
import { LineCell } from "./LineCell";
import { shownText, type LinesProps } from "./lines";

/**
 * The lines as a plain table of inputs: what the server draws, and all a browser without scripts gets (decision 061).
 * It has a fixed number of rows; 增加行 posts the form as typed and the page comes back with more.
 */
export function PlainLines({ fields, rows, errors, dicts, options, sources, header, title }: LinesProps) {
  return (
    <div data-testid="plain-lines">
      <input type="hidden" name="rowCount" value={rows.length} />
      <Table withTableBorder withColumnBorders verticalSpacing={4} horizontalSpacing={6} aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>行号</Table.Th>
            {fields.flatMap((f: FieldDef) => [
              <Table.Th key={f.name}>
                {f.label}
                {f.required && (
                  <Text span c="red" inherit>
                    {" "}*
                  </Text>
                )}
              </Table.Th>,
              ...(f.narrowedShows ? [<Table.Th key={`${f.name}:shows`}>{f.narrowedShows}</Table.Th>] : []),
            ])}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            <Table.Tr key={i}>
              <Table.Td>
                {i + 1}
                {row.id && <input type="hidden" name={lineInputName(i, "id")} value={row.id} />}
              </Table.Td>
              {fields.flatMap((f) => [
                <Table.Td key={f.name}>
                  <LineCell
                    field={f}
                    name={lineInputName(i, f.name)}
                    row={i + 1}
                    value={row[f.name] ?? ""}
                    error={errors[lineInputName(i, f.name)]?.[0]}
                    dicts={dicts}
                    options={options[f.name] ?? []}
                    source={sources[f.name] ?? null}
                    narrowedTo={f.narrowedBy ? header?.[f.narrowedBy] : undefined}
                  />
                </Table.Td>,
                // What the chosen source line brings (a return's goods and batch), as the page was drawn.
                ...(f.narrowedShows
                  ? [
                      <Table.Td key={`${f.name}:shows`} data-testid={`shows-${f.name}`}>
                        <Text size="sm">{shownText(options[f.name] ?? [], row[f.name])}</Text>
                      </Table.Td>,
                    ]
                  : []),
              ])}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Button type="submit" name="intent" value="addRows" variant="default" size="xs" mt="xs" leftSection={<IconPlus size={14} />} formNoValidate>
        增加行
      </Button>
    </div>
  );
}
