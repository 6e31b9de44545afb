import "@mantine/charts/styles.css";
import { Alert, Anchor, Button, Group, NativeSelect, Paper, Skeleton, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Suspense } from "react";
import { IconDownload, IconPrinter, IconSearch } from "~/components/icons";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { ListPagination } from "~/components/resource/ListPagination";
import { useAppLinkNavigation } from "~/components/resource/RowActions";
import { permissionCode } from "../../../resources/define";
import { dictLabel, type DictOption } from "../../../resources/dicts";
import { monthDays, reportApiPath, reportParams, reportPath, reportPrintPath, type ReportColumn, type ReportDef } from "../../../resources/report/index";
import { findDeclaredReport as findReport, reportForPath } from "../../../resources/index";
import type { Route } from "./+types/report";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { DateField } from "~/components/dates/DateField";
import { useDicts } from "~/lib/dicts";
import { formatCount, formatFen, formatQuantity } from "~/lib/format";
import { thousandthsToQuantity } from "../../../resources/quantity";
import { hrefWith } from "~/lib/list-url";
import { t } from "~/lib/messages";
import { usePermissions } from "~/lib/permissions";
import { chartPoints, reportPage } from "~/lib/report-page.server";
import { requireUserInfo } from "~/lib/session.server";
import classes from "./report.module.css";
import { lazyPart } from "~/lib/lazy-part";

// Only a report with a chart fetches the chart library.
const ReportChart = lazyPart(() => import("./chart"));

type Cell = string | number | null;
type Answer = {
  filters: Record<string, string>;
  rows: Array<Record<string, Cell>>;
  totals: Record<string, Cell>;
  truncated: number;
  more: boolean;
  /** The rows folded by the chart's x over every row, when the answer was cut at the row limit (decision 090). */
  chartRows?: Array<Record<string, Cell>>;
  options: Record<string, Array<{ value: string; label: string }>>;
  summary: string;
  generatedText: string;
};

/**
 * Every report's page (decision 030): `/report/<screen>/index` in the shell, `/report/<screen>/print` alone for A4
 * (a module's own report under its group: `/sc/sccostexpense/profitCount/index`).
 * The filters are the URL (a GET form, so a filtered report is a bookmark and works before scripts load);
 * `?export=xlsx` hands the same filters to the report's export. The table shows a page of the rows (`pageNum`,
 * `pageSize`); the totals, the chart, the export and the print view cover them all (decision 046).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const def = reportForPath(url.pathname);
  if (!def) throw data(null, { status: 404 });
  const query = Object.fromEntries(reportParams(def).map((name) => [name, url.searchParams.get(name) ?? ""]));
  if (url.searchParams.get("export") === "xlsx") {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ""));
    throw redirect(`${reportApiPath(def)}/export?${params}`);
  }
  const print = url.pathname.endsWith("/print");
  // A report of one diner opens on its filter form until a diner is named, rather than on an error.
  const waiting = def.filters.some((f) => f.kind === "diner" && f.required && !query[f.name]);
  const none = { options: {} as Answer["options"], fieldErrors: {} as Record<string, string[]>, page: null, chart: null };
  if (waiting) return { name: def.entity, print, query, answer: null, error: null, ...none };
  const result = await apiCall<Answer>(request, context, "GET", reportApiPath(def), { query });
  requirePermitted(result);
  if (result.status !== 200) {
    const refused = (result.data as { fieldErrors?: Record<string, string[]>; options?: Answer["options"] } | null) ?? {};
    return { ...none, name: def.entity, print, query, answer: null, error: result.message, options: refused.options ?? {}, fieldErrors: refused.fieldErrors ?? {} };
  }
  const answer = result.data;
  if (print) return { ...none, name: def.entity, print, query, answer, error: null };
  const { rows, ...page } = reportPage(url, answer.rows);
  const chart = def.chart && answer.rows.length > 0 && (!def.chart.needs || query[def.chart.needs]) ? chartPoints(def, answer.chartRows ?? answer.rows) : null;
  return { ...none, name: def.entity, print, query, answer: { ...answer, rows, chartRows: undefined }, error: null, page, chart };
}

export function meta({ loaderData }: Route.MetaArgs) {
  const def = loaderData ? findReport(loaderData.name) : undefined;
  return [{ title: `${def?.title ?? "报表"}${loaderData?.print ? "（打印）" : ""} - ${t.appTitle}` }];
}

const numeric = (c: ReportColumn) => c.kind === "money" || c.kind === "count" || c.kind === "quantity";

function cellText(c: ReportColumn, value: Cell, dicts: Record<string, DictOption[]>): string {
  if (value === null || value === undefined) return "";
  if (c.kind === "money") return formatFen(Number(value));
  if (c.kind === "count") return formatCount(Number(value));
  if (c.kind === "quantity") return formatQuantity(thousandthsToQuantity(Number(value)));
  if (c.kind === "enum" && c.dict) return dictLabel(dicts, c.dict, value);
  return String(value);
}

/** The URL of a drill-down: the target report with this period and the filters it shares, and the row's values. */
function drillHref(def: ReportDef, column: ReportColumn, row: Record<string, Cell>, filters: Record<string, string>): string | null {
  const link = column.link;
  const target = link && findReport(link.report);
  if (!link || !target) return null;
  const params = new URLSearchParams();
  // A month report drills into a day report over the same days.
  const period = filters.fromMonth && filters.toMonth ? { ...filters, ...monthDays(filters.fromMonth, filters.toMonth) } : filters;
  for (const name of reportParams(target)) if (period[name]) params.set(name, period[name]);
  for (const [param, key] of Object.entries(link.params)) {
    const value = row[key];
    if (value === null || value === undefined || value === "") return null;
    params.set(param, String(value));
  }
  return `${reportPath(target)}?${params}`;
}

function ReportTable({ def, answer, dicts, links }: { def: ReportDef; answer: Answer; dicts: Record<string, DictOption[]>; links: boolean }) {
  return (
    <Table striped={!links ? false : true} highlightOnHover={links} withTableBorder withColumnBorders className={classes.table} data-testid="report-table">
      <Table.Thead>
        <Table.Tr>
          {def.columns.map((c) => (
            <Table.Th key={c.key} ta={numeric(c) ? "right" : undefined}>
              {c.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {answer.rows.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={def.columns.length}>
              <Text size="sm" c="dimmed" ta="center" py="md">
                没有符合条件的数据
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
        {answer.rows.map((row, i) => (
          <Table.Tr key={i}>
            {def.columns.map((c) => {
              const text = cellText(c, row[c.key], dicts);
              const href = links && text ? drillHref(def, c, row, answer.filters) : null;
              return (
                <Table.Td key={c.key} ta={numeric(c) ? "right" : undefined} className={numeric(c) ? classes.number : undefined}>
                  {href ? (
                    <Anchor href={href} size="sm">
                      {text}
                    </Anchor>
                  ) : (
                    text
                  )}
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr className={classes.totals} data-testid="report-totals">
          {def.columns.map((c) => (
            <Table.Th key={c.key} ta={numeric(c) ? "right" : undefined} className={numeric(c) ? classes.number : undefined}>
              {cellText(c, answer.totals[c.key] ?? null, dicts)}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}

function Filters({ def, query, answer, options, fieldErrors, dicts, pageSize }: { def: ReportDef; query: Record<string, string>; answer: Answer | null; options: Answer["options"]; fieldErrors: Record<string, string[]>; dicts: Record<string, DictOption[]>; pageSize: string | null }) {
  // What was typed stays on a refusal; an answer shows the filters as applied (defaults filled in).
  const value = (name: string) => answer?.filters[name] ?? query[name] ?? "";
  const error = (name: string) => fieldErrors[name]?.[0];
  return (
    <Form method="get" role="search" aria-label={`${def.title}查询条件`}>
      {/* A new query starts at page 1 with the page size chosen. */}
      {pageSize && <input type="hidden" name="pageSize" value={pageSize} />}
      <Group align="flex-start" gap="sm">
        {def.filters.map((f) => {
          switch (f.kind) {
            case "dayRange":
              return [
                // The browser's own fields, then the Chinese calendar over them (decision 065).
                <DateField key="from" name="from" label="开始日期" defaultValue={value("from")} error={error("from")} w={170} />,
                <DateField key="to" name="to" label="结束日期" defaultValue={value("to")} error={error("to")} w={170} />,
              ];
            case "monthRange":
              return [
                <TextInput key="fromMonth" type="month" name="fromMonth" label="开始月份" placeholder="2026-05" defaultValue={value("fromMonth")} error={error("fromMonth")} w={170} />,
                <TextInput key="toMonth" type="month" name="toMonth" label="结束月份" placeholder="2026-05" defaultValue={value("toMonth")} error={error("toMonth")} w={170} />,
              ];
            case "enum":
            case "org":
            case "ref":
            case "staffType":
              return (
                <NativeSelect
                  key={f.name}
                  name={f.name}
                  label={f.label}
                  defaultValue={value(f.name)}
                  error={error(f.name)}
                  data={[{ value: "", label: "全部" }, ...(f.kind === "enum" ? (dicts[f.dict] ?? []) : (options[f.name] ?? []))]}
                  w={160}
                />
              );
            case "code":
            case "keyword":
              return <TextInput key={f.name} name={f.name} label={f.label} placeholder={`输入${f.label}`} defaultValue={value(f.name)} error={error(f.name)} w={170} />;
            case "diner":
              return <TextInput key={f.name} name={f.name} label={f.label} placeholder="输入人员编号" defaultValue={value(f.name)} error={error(f.name)} withAsterisk={f.required} w={170} />;
          }
        })}
        <Button type="submit" leftSection={<IconSearch size={16} />} mt={25}>
          查询
        </Button>
      </Group>
    </Form>
  );
}

export default function Report({ loaderData }: Route.ComponentProps) {
  const { name, print, query, answer, error, options, fieldErrors, page, chart } = loaderData;
  const def = findReport(name) as ReportDef;
  const location = useLocation();
  const onAppLinkClick = useAppLinkNavigation();
  const dicts = useDicts();
  const can = usePermissions();
  const search = answer ? new URLSearchParams(Object.entries(answer.filters)).toString() : "";

  if (print) {
    return (
      <div className={classes.print} data-testid="report-print">
        <header className={classes.printHeader}>
          <Title order={3}>{def.title}</Title>
          <Text size="sm">{answer?.summary ?? error}</Text>
          <Text size="sm" c="dimmed">
            打印时间：{answer?.generatedText}（北京时间） · 金额单位：元
          </Text>
        </header>
        {answer && <ReportTable def={def} answer={answer} dicts={dicts} links={false} />}
        <Group className={classes.noPrint} mt="md">
          <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            打印
          </Button>
          <Anchor component={Link} to={`${reportPath(def)}?${search}`}>
            返回报表
          </Anchor>
        </Group>
      </div>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={3}>{def.title}</Title>
          <Text size="sm" c="dimmed" mt={4}>
            {def.description}
          </Text>
        </div>
        {answer && (
          <Group gap="xs">
            {can(permissionCode(def, "export")) && (
              <Button component="a" href={`${reportPath(def)}?${search}&export=xlsx`} variant="default" leftSection={<IconDownload size={16} />}>
                导出 Excel
              </Button>
            )}
            <Button component="a" href={`${reportPrintPath(def)}?${search}`} target="_blank" variant="default" leftSection={<IconPrinter size={16} />}>
              打印
            </Button>
          </Group>
        )}
      </Group>
      <Paper withBorder radius="md" p="md">
        <Filters def={def} query={query} answer={answer} options={answer?.options ?? options} fieldErrors={fieldErrors} dicts={dicts} pageSize={page && new URLSearchParams(location.search).has("pageSize") ? String(page.pageSize) : null} />
      </Paper>
      {error && !Object.keys(fieldErrors).length && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {!answer && !error && (
        <Alert color="blue" variant="light">
          请输入人员编号后查询。
        </Alert>
      )}
      {chart && (
        <Paper withBorder radius="md" p="md">
          <Suspense fallback={<Skeleton h={280} />}>
            <ReportChart def={def} points={chart} dicts={dicts} />
          </Suspense>
        </Paper>
      )}
      {answer && (
        <Paper withBorder radius="md" p="md" onClick={onAppLinkClick} data-app-links>
          <Text size="sm" c="dimmed" mb="xs">
            {answer.summary} · 金额单位：元
          </Text>
          {answer.more && (
            <Alert color="yellow" variant="light" mb="xs">
              仅显示前 {formatCount(page?.total ?? answer.rows.length)} 条，{answer.truncated > 0 ? `另有 ${formatCount(answer.truncated)} 条未显示` : "其余未显示"}（合计包含全部）；请缩小日期范围或增加筛选条件。
            </Alert>
          )}
          {/* A region a keyboard can scroll sideways (focusable, named), as the report may be wider than the screen. */}
          <div style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label={`${def.title}数据`}>
            <div style={{ minWidth: def.columns.length * 110 }}>
              <ReportTable def={def} answer={answer} dicts={dicts} links />
            </div>
          </div>
          {page && page.total > 0 && <ListPagination total={page.total} pageNum={page.pageNum} pageSize={page.pageSize} hrefFor={(changes) => hrefWith(location, changes)} />}
        </Paper>
      )}
    </Stack>
  );
}
