import { Anchor, Button, Group } from "@mantine/core";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { DOC_NO, DOC_STATUS } from "../../../resources/document";
import { documentBase, totalledFields } from "../../../resources/document-form";
import { DocumentAllocations, DocumentLines, shownLineFields } from "~/components/document/DocumentLines";
import { FieldValue } from "~/components/resource/cells";
import { IconPrinter } from "~/components/icons";
import { useDicts } from "~/lib/dicts";
import { loadDetail, requireDocument } from "~/lib/document.server";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import classes from "./print.module.css";

/** The print view reads what the detail page does; it takes no step. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const detail = await loadDetail(request, context, requireDocument(request), params.id);
  return { ...detail, transitions: [], printedAt: Date.now() };
}

export function meta({ loaderData }: { loaderData: Awaited<ReturnType<typeof loader>> | undefined }) {
  return [{ title: `${loaderData?.doc.title ?? ""} ${String(loaderData?.record[DOC_NO] ?? "")}（打印） - ${t.appTitle}` }];
}

interface HistoryRow {
  action: string;
  operatorName: string | null;
}

/**
 * A document on paper (decision 061), like the report print views (decision 030): the tenant, the number, the date,
 * the header, the lines with their sums, and the signature lines, filled in where the history names who made and
 * who approved it.
 */
export default function DocumentPrint() {
  const loaderData = useLoaderData<typeof loader>();
  const { doc, record, status, tenantName, printedAt } = loaderData;
  const dicts = useDicts();
  const history = (record.history as HistoryRow[] | undefined) ?? [];
  const by = (action: string) => history.filter((h) => h.action === action).at(-1)?.operatorName ?? "";
  const headerFields = doc.header.fields.filter((f) => !f.hidden && f.name !== DOC_NO && f.name !== DOC_STATUS && f.type !== "longText");
  const notes = doc.header.fields.filter((f) => !f.hidden && f.type === "longText" && record[f.name]);
  const lineFields = shownLineFields(doc.lines.fields);
  return (
    <div className={classes.sheet} data-testid="document-print">
      <header className={classes.head}>
        <div className={classes.tenant}>{tenantName}</div>
        <h1 className={classes.title}>{doc.title}</h1>
      </header>
      <div className={classes.meta}>
        <span>单号：{String(record[DOC_NO])}</span>
        <span>制单日期：{formatTime(record.createdAt as number, "YYYY-MM-DD")}</span>
        <span>状态：{status.label}</span>
      </div>
      <div className={classes.facts}>
        {headerFields.map((f) => (
          <div key={f.name}>
            {f.label}：<FieldValue field={f} record={record} dicts={dicts} />
          </div>
        ))}
      </div>
      <DocumentLines fields={lineFields} lines={(record.lines as Record<string, unknown>[]) ?? []} totalled={totalledFields(doc).map((f) => f.name)} dicts={dicts} className={classes.table} />
      <DocumentAllocations lines={(record.lines as Record<string, unknown>[]) ?? []} className={classes.table} />
      {notes.map((f) => (
        <p key={f.name} style={{ fontSize: 13 }}>
          {f.label}：{String(record[f.name])}
        </p>
      ))}
      <div className={classes.signatures}>
        <div className={classes.signature}>制单：{by("create")}</div>
        <div className={classes.signature}>审核：{by("approve")}</div>
        <div className={classes.signature}>保管：</div>
        <div className={classes.signature}>经手：</div>
      </div>
      <Group className={classes.noPrint} mt="lg" justify="space-between">
        <span style={{ fontSize: 12, color: "var(--mantine-color-dimmed)" }}>打印时间：{formatTime(printedAt)}（北京时间） · 金额单位：元</span>
        <Group gap="sm">
          <Anchor component={Link} to={`${documentBase(doc)}/detail/${record.id}`}>
            返回详情
          </Anchor>
          <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            打印
          </Button>
        </Group>
      </Group>
    </div>
  );
}
