import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useEffect, type ReactNode } from "react";
import { IconDownload, IconPrinter, IconUpload } from "~/components/icons";
import { data, Form, Link, useNavigation } from "react-router";
import { permissionCode } from "../../../resources/define";
import { dictLabel, type DictOption } from "../../../resources/dicts";
import {
  BANK_API,
  BANK_MAX_BYTES,
  BANK_MAX_ROWS,
  BANK_PATH,
  BANK_PRINT_PATH,
  bankMessages,
  bankReconcile,
  bankSourceLabels,
  type BankAnswer,
  type BankLine,
  type BankPair,
  type GroupTotals,
  type OurLine,
} from "../../../resources/report/bank";
import type { Route } from "./+types/bank";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { usePermissions } from "~/lib/permissions";
import { requireUserInfo } from "~/lib/session.server";
import classes from "./report.module.css";

/**
 * 银行对账 (decision 034): `/report/bankreconcile/index` in the shell takes the statement in a multipart form that
 * works without scripts; `/report/bankreconcile/print` (alone, for A4) and the export take the statement back from
 * the answer (a hidden field), so neither asks for the file again. The comparison is the server's
 * (server/modules/report/bank.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const print = url.pathname.endsWith("/print");
  const query = { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" };
  const given = Object.fromEntries(Object.entries(query).filter(([, v]) => v));
  const result = await apiCall<{ from: string; to: string }>(request, context, "GET", BANK_API, { query: given });
  requirePermitted(result);
  return { print, query, error: result.status === 200 ? null : result.message };
}

type Problems = { errors: Array<{ row: number; reasons: string[] }>; invalid: number } | null;

export async function action({ request, context }: Route.ActionArgs) {
  await requireUserInfo(request, context);
  // The page's own server does not read past the statement's limit either.
  if (Number(request.headers.get("Content-Length") ?? 0) > BANK_MAX_BYTES + 64 * 1024) {
    return data({ answer: null, error: bankMessages.tooLarge, problems: null as Problems }, { status: 413 });
  }
  const type = request.headers.get("Content-Type") ?? "";
  const bytes = new Uint8Array(await request.arrayBuffer());
  const result = await apiCall<BankAnswer>(request, context, "POST", `${BANK_API}/compare`, { rawBody: { bytes, type } });
  if (result.status === 200) return { answer: result.data, error: null, problems: null as Problems };
  requirePermitted(result);
  const refused = result.data as unknown;
  const problems = refused && typeof refused === "object" && "errors" in refused ? (refused as Problems) : null;
  return data({ answer: null, error: result.message, problems }, { status: result.status === 413 ? 413 : 400 });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${bankReconcile.title}${loaderData?.print ? "（打印）" : ""} - ${t.appTitle}` }];
}

interface Column<T> {
  label: string;
  money?: boolean;
  value: (row: T) => ReactNode;
}

function GroupTable<T>({ name, rows, columns, totals }: { name: string; rows: T[]; columns: Array<Column<T>>; totals: Array<ReactNode> }) {
  return (
    <div style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label={`${name}明细`}>
      <Table striped withTableBorder withColumnBorders className={classes.table} data-testid="bank-table" aria-label={name}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label} ta={c.money ? "right" : undefined}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text size="sm" c="dimmed" ta="center" py="xs">
                  无
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((row, i) => (
            <Table.Tr key={i}>
              {columns.map((c) => (
                <Table.Td key={c.label} ta={c.money ? "right" : undefined} className={c.money ? classes.number : undefined}>
                  {c.value(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr className={classes.totals} data-testid="bank-totals">
            {columns.map((c, i) => (
              <Table.Th key={c.label} ta={c.money ? "right" : undefined} className={c.money ? classes.number : undefined}>
                {totals[i] ?? ""}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </div>
  );
}

const bankColumns: Array<Column<BankLine>> = [
  { label: "行号", value: (b) => b.row },
  { label: "银行日期", value: (b) => b.date },
  { label: "参考号", value: (b) => b.reference },
];

function ourColumns(dicts: Record<string, DictOption[]>): Array<Column<OurLine>> {
  return [
    { label: "我方类型", value: (o) => bankSourceLabels[o.source] },
    { label: "我方时间", value: (o) => o.at },
    { label: "人员", value: (o) => o.userName },
    { label: "支付方式", value: (o) => dictLabel(dicts, "userAccountFlag", o.payFlag) },
  ];
}

const SECTIONS = [
  { key: "matched", title: "已对上", color: "teal", hint: "参考号与金额都一致" },
  { key: "mismatched", title: "金额不符", color: "orange", hint: "参考号相同、金额不同：不算对上" },
  { key: "bankOnly", title: "仅银行有", color: "red", hint: "对账单有、我方期间内没有" },
  { key: "oursOnly", title: "仅我方有", color: "grape", hint: "我方期间内有、对账单没有" },
] as const;

function Sections({ answer, dicts }: { answer: BankAnswer; dicts: Record<string, DictOption[]> }) {
  const ours = ourColumns(dicts);
  const pair = (c: Column<OurLine>): Column<BankPair> => ({ ...c, value: (p) => c.value(p.ours) });
  const onBank = (c: Column<BankLine>): Column<BankPair> => ({ ...c, value: (p) => c.value(p.bank) });
  const tables = {
    matched: (
      <GroupTable
        name="已对上"
        rows={answer.matched}
        columns={[...bankColumns.map(onBank), { label: "金额", money: true, value: (p) => formatFen(p.bank.amount) }, ...ours.map(pair), { label: "说明", value: (p) => p.ours.note }]}
        totals={["合计", `${answer.totals.matched.bankCount} 笔`, "", formatFen(answer.totals.matched.bank)]}
      />
    ),
    mismatched: (
      <GroupTable
        name="金额不符"
        rows={answer.mismatched}
        columns={[
          ...bankColumns.map(onBank),
          { label: "银行金额", money: true, value: (p) => formatFen(p.bank.amount) },
          { label: "我方金额", money: true, value: (p) => formatFen(p.ours.amount) },
          { label: "差额", money: true, value: (p) => formatFen(p.bank.amount - p.ours.amount) },
          ...ours.map(pair),
        ]}
        totals={["合计", `${answer.totals.mismatched.bankCount} 笔`, "", formatFen(answer.totals.mismatched.bank), formatFen(answer.totals.mismatched.ours), formatFen(answer.totals.mismatched.bank - answer.totals.mismatched.ours)]}
      />
    ),
    bankOnly: (
      <GroupTable
        name="仅银行有"
        rows={answer.bankOnly}
        columns={[...bankColumns, { label: "金额", money: true, value: (b) => formatFen(b.amount) }, { label: "说明", value: (b) => b.note }]}
        totals={["合计", `${answer.totals.bankOnly.bankCount} 笔`, "", formatFen(answer.totals.bankOnly.bank)]}
      />
    ),
    oursOnly: (
      <GroupTable
        name="仅我方有"
        rows={answer.oursOnly}
        columns={[{ label: "我方单号", value: (o) => o.reference }, ...ours, { label: "金额", money: true, value: (o) => formatFen(o.amount) }, { label: "说明", value: (o) => o.note }]}
        totals={["合计", `${answer.totals.oursOnly.oursCount} 笔`, "", "", "", formatFen(answer.totals.oursOnly.ours)]}
      />
    ),
  };
  return (
    <>
      {SECTIONS.map((s) => (
        <section key={s.key} aria-labelledby={`bank-${s.key}`} data-testid={`bank-${s.key}`} className={classes.bankSection}>
          <Group gap="xs" mb="xs">
            <Title order={4} id={`bank-${s.key}`}>
              {s.title}
            </Title>
            <Badge color={s.color} variant="light">
              {Math.max(answer.totals[s.key].bankCount, answer.totals[s.key].oursCount)} 笔
            </Badge>
            <Text size="sm" c="dimmed">
              {s.hint}
            </Text>
          </Group>
          {tables[s.key]}
        </section>
      ))}
    </>
  );
}

function Stat({ label, totals, color, side }: { label: string; totals: GroupTotals; color: string; side: "bank" | "ours" }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="bank-stat">
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Group gap={6} align="baseline">
        <Text fw={700} size="xl" c={color} className={classes.number}>
          {side === "bank" ? totals.bankCount : totals.oursCount}
        </Text>
        <Text size="sm" c="dimmed">
          笔
        </Text>
      </Group>
      <Text size="sm" className={classes.number}>
        {formatFen(side === "bank" ? totals.bank : totals.ours)} 元
      </Text>
    </Paper>
  );
}

/** The statement posted back: the export (the API's XLSX) and the print view need no second upload. */
function ResultButtons({ answer, canExport }: { answer: BankAnswer; canExport: boolean }) {
  return (
    <form method="post" encType="multipart/form-data" action={BANK_PRINT_PATH} target="_blank" data-testid="bank-result-form">
      <input type="hidden" name="statement" value={answer.statement} />
      <input type="hidden" name="from" value={answer.periodFromFile ? "" : answer.from} />
      <input type="hidden" name="to" value={answer.periodFromFile ? "" : answer.to} />
      <Group gap="xs">
        {canExport && (
          <Button type="submit" formAction={`${BANK_API}/export`} formTarget="_self" variant="default" leftSection={<IconDownload size={16} />}>
            导出 Excel
          </Button>
        )}
        <Button type="submit" variant="default" leftSection={<IconPrinter size={16} />}>
          打印
        </Button>
      </Group>
    </form>
  );
}

function Overview({ answer }: { answer: BankAnswer }) {
  const { totals } = answer;
  const difference = totals.all.bank - totals.all.ours;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <Stat label="已对上" totals={totals.matched} color="teal" side="bank" />
        <Stat label="金额不符" totals={totals.mismatched} color="orange" side="bank" />
        <Stat label="仅银行有" totals={totals.bankOnly} color="red" side="bank" />
        <Stat label="仅我方有" totals={totals.oursOnly} color="grape" side="ours" />
      </SimpleGrid>
      <Table withTableBorder className={classes.table} data-testid="bank-overall" aria-label="总计">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>总计</Table.Th>
            <Table.Th ta="right">笔数</Table.Th>
            <Table.Th ta="right">金额（元）</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>银行对账单</Table.Td>
            <Table.Td ta="right" className={classes.number}>
              {totals.all.bankCount}
            </Table.Td>
            <Table.Td ta="right" className={classes.number}>
              {formatFen(totals.all.bank)}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>我方（线上支付订单、充值与充值退款）</Table.Td>
            <Table.Td ta="right" className={classes.number}>
              {totals.all.oursCount}
            </Table.Td>
            <Table.Td ta="right" className={classes.number}>
              {formatFen(totals.all.ours)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr className={classes.totals}>
            <Table.Th>差额（银行 − 我方）</Table.Th>
            <Table.Th />
            <Table.Th ta="right" className={classes.number} c={difference === 0 ? "teal" : "red"}>
              {formatFen(difference)}
            </Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Stack>
  );
}

function ProblemList({ problems }: { problems: NonNullable<Problems> }) {
  return (
    <Table striped withTableBorder className={classes.table} data-testid="bank-problems" aria-label="有误的行" mt="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={80}>行号</Table.Th>
          <Table.Th>原因</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {problems.errors.map((p) => (
          <Table.Tr key={p.row}>
            <Table.Td>{p.row}</Table.Td>
            <Table.Td>{p.reasons.join("；")}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export default function BankReconcile({ loaderData, actionData }: Route.ComponentProps) {
  const { print, query, error: loadError } = loaderData;
  const answer = actionData?.answer ?? null;
  const error = actionData?.error ?? loadError;
  const dicts = useDicts();
  const can = usePermissions();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // The period the answer was made for becomes the page's URL, so a reload or a bookmark keeps it.
  useEffect(() => {
    if (!answer || answer.periodFromFile || print) return;
    window.history.replaceState(window.history.state, "", `${BANK_PATH}?${new URLSearchParams({ from: answer.from, to: answer.to })}`);
  }, [answer, print]);

  if (print) {
    return (
      <div className={classes.print} data-testid="report-print">
        <header className={classes.printHeader}>
          <Title order={3}>{bankReconcile.title}</Title>
          <Text size="sm">{answer?.summary ?? error ?? "请在银行对账页面上传对账单后打印。"}</Text>
          {answer && (
            <Text size="sm" c="dimmed">
              打印时间：{answer.generatedText}（北京时间） · 金额单位：元
            </Text>
          )}
        </header>
        {answer && (
          <Stack gap="md">
            <Overview answer={answer} />
            <Sections answer={answer} dicts={dicts} />
          </Stack>
        )}
        <Group className={classes.noPrint} mt="md">
          {answer && (
            <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
              打印
            </Button>
          )}
          <Anchor component={Link} to={BANK_PATH}>
            返回银行对账
          </Anchor>
        </Group>
      </div>
    );
  }

  const canCompare = can(permissionCode(bankReconcile, "compare"));
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={3}>{bankReconcile.title}</Title>
          <Text size="sm" c="dimmed" mt={4}>
            上传银行对账单，按参考号与金额与我方的线上支付订单（订单号）、充值与充值退款（单号）核对。对账只读取数据，不修改任何记录。
          </Text>
        </div>
        {answer && <ResultButtons answer={answer} canExport={can(permissionCode(bankReconcile, "export"))} />}
      </Group>
      <Paper withBorder radius="md" p="md">
        {canCompare ? (
          <Form method="post" encType="multipart/form-data" aria-label="上传银行对账单">
            <Group align="flex-end" gap="sm">
              <TextInput type="date" name="from" label="开始日期" defaultValue={answer && !answer.periodFromFile ? answer.from : query.from} w={170} />
              <TextInput type="date" name="to" label="结束日期" defaultValue={answer && !answer.periodFromFile ? answer.to : query.to} w={170} />
              <div>
                <Text component="label" htmlFor="bank-file" size="sm" fw={500} display="block" mb={4}>
                  对账单文件
                </Text>
                <input id="bank-file" name="file" type="file" required accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" className={classes.fileInput} />
              </div>
              <Button type="submit" loading={busy} leftSection={<IconUpload size={16} />}>
                上传并对账
              </Button>
            </Group>
            <Text size="xs" c="dimmed" mt="xs">
              .xlsx 或 .csv（UTF-8 或 GBK），第 1 行为列名：日期、参考号、金额（元，最多两位小数；支出为负数）；不超过 {BANK_MAX_BYTES / 1024 / 1024}M、{BANK_MAX_ROWS} 行。日期不填时取对账单中的日期范围。
            </Text>
          </Form>
        ) : (
          <Text size="sm" c="dimmed">
            没有上传对账单的权限。
          </Text>
        )}
      </Paper>
      {error && (
        <Alert color="red" variant="light" role="alert" data-testid="bank-error">
          {error}
          {actionData?.problems && <ProblemList problems={actionData.problems} />}
        </Alert>
      )}
      {answer && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="lg">
            <Text size="sm" c="dimmed" data-testid="bank-summary">
              {answer.summary} · 金额单位：元
            </Text>
            <Overview answer={answer} />
            <Sections answer={answer} dicts={dicts} />
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
