import { Anchor, Button, Group, Text } from "@mantine/core";
import { useHydrated } from "~/lib/hydrated";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import type { FieldDef } from "../../../resources/define";
import { dictLabel, type DictOption } from "../../../resources/dicts";
import { DOC_NO, PRINT_PAPERS, type DocumentPrint, type PrintPaper } from "../../../resources/document";
import { documentBase, totalledFields } from "../../../resources/document-form";
import { fenToChineseCapitals } from "../../../resources/moneyWords";
import { quantityToThousandths, thousandthsToQuantity } from "../../../resources/quantity";
import { DocumentAllocations } from "~/components/document/DocumentLines";
import { FieldValue } from "~/components/resource/cells";
import { IconPrinter } from "~/components/icons";
import { useDicts } from "~/lib/dicts";
import { loadPrint, requireDocument } from "~/lib/document.server";
import { formatFen, formatQuantity, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import classes from "./print.module.css";

type Row = Record<string, unknown>;

/** The print view reads the document with its print data (`…/print`); it takes no step. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadPrint(request, context, requireDocument(request), params.id);
}

export function meta({ loaderData }: { loaderData: Awaited<ReturnType<typeof loader>> | undefined }) {
  return [{ title: `${loaderData?.doc.title ?? ""} ${String(loaderData?.record[DOC_NO] ?? "")}（打印） - ${t.appTitle}` }];
}

const PAPER_LABEL: Record<PrintPaper, string> = { a4: "A4", "80mm": "80mm 小票" };

interface HistoryRow {
  action: string;
  operatorName: string | null;
}


const isQuantity = (f: FieldDef) => (f.type as string) === "quantity";
const isNumeric = (f: FieldDef) => f.type === "money" || f.type === "number" || isQuantity(f);
/** A column's sum in its smallest unit: fen, or thousandths (quantities are exact decimals, never float sums). */
const unitsOf = (f: FieldDef, value: unknown) => (isQuantity(f) ? quantityToThousandths(Number(value ?? 0)) : Number(value ?? 0));

/** One printed value: a quantity with its goods' unit (12.345 千克), a dictionary's word as plain text, else as lists show it. */
function Value({ field, row, dicts }: { field: FieldDef; row: Row; dicts: Record<string, DictOption[]> }) {
  const value = row[field.name];
  if (isQuantity(field) && value !== null && value !== undefined) {
    return <>{`${formatQuantity(Number(value))}${row.unit ? ` ${String(row.unit)}` : ""}`}</>;
  }
  if (field.type === "enum" && !field.show && value !== null && value !== undefined && value !== "") return <>{dictLabel(dicts, field.dict ?? "", value)}</>;
  return <FieldValue field={field} record={row} dicts={dicts} />;
}

/** A total as printed: money in yuan; a quantity with the unit when every line has the same one. */
function totalText(field: FieldDef, lines: Row[]): string {
  const units = lines.reduce((sum, line) => sum + unitsOf(field, line[field.name]), 0);
  if (!isQuantity(field)) return formatFen(units);
  const unitNames = new Set(lines.map((l) => l.unit ?? ""));
  const unit = unitNames.size === 1 ? String([...unitNames][0]) : "";
  return `${formatQuantity(thousandthsToQuantity(units))}${unit ? ` ${unit}` : ""}`;
}

/**
 * A document on paper (decision 082), as its declaration's `print` says: the title it is printed for (the tenant's
 * receipt title), the document's name, number, date and status, the header fields it names, the lines in its
 * columns (a column printed blank for a count written by hand), the totals, the amount in figures and in Chinese
 * capitals, and the signature lines, filled where the history names who took the step. `?paper=a4` lays it out as
 * a table on A4; `?paper=80mm` as a narrow slip, each line a block, for an 80 mm receipt printer.
 */
export default function DocumentPrintView() {
  const { doc, print, record, title, status, paper, printedAt } = useLoaderData<typeof loader>();
  const dicts = useDicts();
  // The 打印 button calls the browser's print, so it is drawn once scripts run; before, the page says how to print.
  const hydrated = useHydrated();
  const lines = (record.lines as Row[] | undefined) ?? [];
  const history = (record.history as HistoryRow[] | undefined) ?? [];
  const headerField = (name: string) => doc.header.fields.find((f) => f.name === name) as FieldDef;
  const columns = print.columns.map((name) => doc.lines.fields.find((f) => f.name === name) as FieldDef);
  const blank = new Set(print.blank?.statuses.includes(status.value) ? print.blank.columns : []);
  const totalled = new Set(totalledFields(doc).map((f) => f.name));
  const totals = columns.filter((f) => totalled.has(f.name) && !blank.has(f.name));
  const amountField = print.amount && !blank.has(print.amount) ? columns.find((f) => f.name === print.amount) : undefined;
  const amount = amountField ? lines.reduce((sum, line) => sum + Number(line[amountField.name] ?? 0), 0) : null;
  const notes = doc.header.fields.filter((f) => !f.hidden && f.type === "longText" && record[f.name]);
  const by = (action: string | undefined) => (action ? (history.filter((h) => h.action === action).at(-1)?.operatorName ?? "") : "");
  const base = documentBase(doc);
  const receipt = paper === "80mm";
  return (
    <div className={receipt ? classes.receipt : classes.sheet} data-testid="document-print" data-paper={paper}>
      <header className={classes.head}>
        <div className={classes.tenant} data-testid="print-title">
          {title}
        </div>
        <h1 className={classes.title}>{doc.title}</h1>
      </header>
      <div className={classes.meta}>
        <span>单号：{String(record[DOC_NO])}</span>
        <span>日期：{print.date && record[print.date] ? String(record[print.date]) : formatTime(record.createdAt as number, "YYYY-MM-DD")}</span>
        <span>状态：{status.label}</span>
      </div>
      <div className={classes.facts}>
        {print.header.map((name) => (
          <div key={name}>
            {headerField(name).label}：<Value field={headerField(name)} row={record} dicts={dicts} />
          </div>
        ))}
      </div>
      {receipt ? <ReceiptLines columns={columns} lines={lines} blank={blank} dicts={dicts} /> : <SheetLines columns={columns} lines={lines} blank={blank} totals={totals} dicts={dicts} />}
      <div className={classes.totals} data-testid="print-totals">
        {receipt &&
          totals.map((f) => (
            <div key={f.name}>
              合计{f.label}：<b data-testid={`total-${f.name}`}>{totalText(f, lines)}</b>
            </div>
          ))}
        {amountField && amount !== null ? (
          <div data-testid="amount-words">
            {amountField.label.replace(/（元）$/, "")}合计（大写）：人民币{fenToChineseCapitals(amount)}
            <span className={classes.figure}>￥{formatFen(amount)}</span>
          </div>
        ) : (
          print.amount && <div data-testid="amount-words">合计（大写）：人民币</div>
        )}
      </div>
      {!receipt && <DocumentAllocations lines={lines} className={classes.table} />}
      {notes.map((f) => (
        <p key={f.name} className={classes.note}>
          {f.label}：{String(record[f.name])}
        </p>
      ))}
      <div className={classes.signatures} data-testid="print-signatures">
        {print.signatures.map((s: DocumentPrint["signatures"][number]) => (
          <div key={s.label} className={classes.signature}>
            {s.label}：{by(s.by)}
          </div>
        ))}
      </div>
      <div className={classes.noPrint}>
        <Text size="xs" c="dimmed">
          打印时间：{formatTime(printedAt)}（北京时间） · 金额单位：元
        </Text>
        <Group gap="xs" mt="sm" justify="space-between">
          <Group gap={4} role="group" aria-label="纸张">
            {PRINT_PAPERS.map((p) => (
              <Button key={p} component={Link} to={`?paper=${p}`} size="xs" variant={p === paper ? "filled" : "default"} aria-current={p === paper ? "page" : undefined}>
                {PAPER_LABEL[p]}
              </Button>
            ))}
          </Group>
          <Group gap="sm">
            <Anchor component={Link} to={`${base}/detail/${String(record.id)}`} size="sm">
              返回详情
            </Anchor>
            {hydrated ? (
              <Button size="xs" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
                打印
              </Button>
            ) : (
              <Text size="xs" c="dimmed">
                用浏览器的打印（Ctrl+P）
              </Text>
            )}
          </Group>
        </Group>
      </div>
    </div>
  );
}

interface LinesProps {
  columns: FieldDef[];
  lines: Row[];
  blank: Set<string>;
  dicts: Record<string, DictOption[]>;
}

/** A4: the lines as a table, the column sums under them; a blank column's cells are left for the pen. */
function SheetLines({ columns, lines, blank, totals, dicts }: LinesProps & { totals: FieldDef[] }) {
  return (
    <table className={classes.table} data-testid="document-lines">
      <thead>
        <tr>
          <th className={classes.lineNo}>行号</th>
          {columns.map((f) => (
            <th key={f.name} className={isNumeric(f) ? classes.numeric : undefined} data-blank={blank.has(f.name) || undefined}>
              {f.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lines.map((line, i) => (
          <tr key={String(line.id ?? i)}>
            <td>{i + 1}</td>
            {columns.map((f) => (
              <td key={f.name} className={blank.has(f.name) ? classes.blankCell : isNumeric(f) ? classes.numeric : undefined} data-testid={blank.has(f.name) ? `blank-${f.name}` : undefined}>
                {blank.has(f.name) ? null : <Value field={f} row={line} dicts={dicts} />}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {totals.length > 0 && (
        <tfoot>
          <tr>
            <th>合计</th>
            {columns.map((f) => (
              <th key={f.name} className={classes.numeric} data-testid={totals.includes(f) ? `total-${f.name}` : undefined}>
                {totals.includes(f) ? totalText(f, lines) : ""}
              </th>
            ))}
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** 80 mm: each line a block — its first column as its name, the others as label and value, a blank one as a rule to write on. */
function ReceiptLines({ columns, lines, blank, dicts }: LinesProps) {
  const [first, ...rest] = columns;
  return (
    <ol className={classes.slipLines} data-testid="document-lines">
      {lines.map((line, i) => (
        <li key={String(line.id ?? i)}>
          <div className={classes.slipName}>
            {i + 1}. {first && <Value field={first} row={line} dicts={dicts} />}
          </div>
          {rest.map((f) => (
            <div key={f.name} className={classes.slipField}>
              <span>{f.label}</span>
              {blank.has(f.name) ? <span className={classes.writeOn} data-testid={`blank-${f.name}`} /> : <Value field={f} row={line} dicts={dicts} />}
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}
