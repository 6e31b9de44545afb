import { Table } from "@mantine/core";
import type { FieldDef } from "../../../resources/define";
import type { DictOption } from "../../../resources/dicts";
import { LINE_NO } from "../../../resources/document";
import { quantityToThousandths } from "../../../resources/quantity";
import { FieldValue } from "~/components/resource/cells";
import { unitsText } from "./lines";

type Row = Record<string, unknown>;

/** A line's value in its smallest unit: money comes in fen, a quantity as its decimal (counted in thousandths). */
const unitsOf = (field: FieldDef, value: unknown) => ((field.type as string) === "quantity" ? quantityToThousandths(Number(value ?? 0)) : Number(value ?? 0));

/** The lines' fields a read page shows: every one not hidden, the server's own (an amount it counted) included. */
export const shownLineFields = (fields: readonly FieldDef[]) => fields.filter((f) => !f.hidden && f.name !== LINE_NO);

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
                {totalled.includes(f.name) ? unitsText(f, lines.reduce((sum, line) => sum + unitsOf(f, line[f.name]), 0)) : ""}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      )}
    </Table>
  );
}

/**
 * What each line moved in its ledger, batch by batch (a stock-out's FEFO allocations, decision 068), for documents
 * whose `getInfo` lines carry `allocations`; nothing while no line has any.
 */
export function DocumentAllocations({ lines, className }: { lines: Row[]; className?: string }) {
  const rows = lines.flatMap((line, i) => ((line.allocations as Row[] | undefined) ?? []).map((a, j): Row => ({ ...a, key: `${i}-${j}`, lineNo: i + 1 })));
  if (!rows.length) return null;
  return (
    <Table withTableBorder withColumnBorders verticalSpacing={6} className={className} data-testid="document-allocations">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={56}>行号</Table.Th>
          <Table.Th>批次号</Table.Th>
          <Table.Th ta="right">数量</Table.Th>
          <Table.Th ta="right">金额（元）</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={String(r.key)}>
            <Table.Td>{String(r.lineNo)}</Table.Td>
            <Table.Td>{String(r.batchNo ?? "")}</Table.Td>
            <Table.Td ta="right">{Number(r.quantity).toLocaleString("zh-CN", { maximumFractionDigits: 3 })}</Table.Td>
            <Table.Td ta="right">{(Number(r.amount) / 100).toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
