import { Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from "@mantine/core";
import { data, Form, Link } from "react-router";
import { WARNING_KINDS, type WarningKind } from "../../../resources/zhhq/closing";
import type { Route } from "./+types/warning";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

/**
 * 库存预警 (issue 41): the warnings of the stock as it stands (server/modules/zhhq/warning.ts), by kind with their
 * counts, filtered by warehouse with a plain GET form (it works before scripts load).
 */

type Warning = {
  kind: WarningKind;
  kindLabel: string;
  /** A car's plate and its list (insurance, inspection); null for the stock's kinds. */
  subject: string | null;
  link: string | null;
  warehouseId: number | null;
  warehouseName: string | null;
  goodsId: number | null;
  goodsName: string | null;
  goodsCode: string | null;
  unitName: string | null;
  quantity: number;
  lowerQuantity: number | null;
  upperQuantity: number | null;
  batchNo: string | null;
  expiryDate: string | null;
  days: number | null;
};
type Answer = { records: Warning[]; counts: Record<WarningKind, number>; warnDays: number };
const BASE = "/zhhq/warehousewarning/index";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const warehouseId = /^\d+$/.test(url.searchParams.get("warehouseId") ?? "") ? (url.searchParams.get("warehouseId") as string) : "";
  const kind = WARNING_KINDS.some((k) => k.value === url.searchParams.get("kind")) ? (url.searchParams.get("kind") as WarningKind) : "";
  const params = new URLSearchParams({ ...(warehouseId ? { warehouseId } : {}), ...(kind ? { kind } : {}) });
  const result = await apiCall<Answer>(request, context, "GET", `/api/v1/zhhq/warehouseWarning/findPage?${params}`);
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 500 });
  const warehouses = await apiCall<{ records: Array<{ id: number; warehouseName: string; status: string }> }>(request, context, "GET", "/api/v1/zhhq/warehouse/findPage?pageSize=100&status=1");
  return { answer: result.data, warehouseId, kind, warehouses: warehouses.status === 200 ? warehouses.data.records : [] };
}

export function meta() {
  return [{ title: `库存预警 - ${t.appTitle}` }];
}

const colorOf = (kind: WarningKind) => WARNING_KINDS.find((k) => k.value === kind)?.color ?? "gray";

function expiryText(days: number): string {
  return days < 0 ? `已过期 ${-days} 天` : days === 0 ? "今天到期" : `剩 ${days} 天`;
}

export default function WarehouseWarning({ loaderData }: Route.ComponentProps) {
  const { answer, warehouseId, kind, warehouses } = loaderData;
  const link = (next: WarningKind | "") => `${BASE}?${new URLSearchParams({ ...(warehouseId ? { warehouseId } : {}), ...(next ? { kind: next } : {}) })}`;
  return (
    <Stack gap="md">
      <Title order={3}>库存预警</Title>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} data-testid="warning-counts">
        {WARNING_KINDS.map((k) => (
          <UnstyledButton key={k.value} component={Link} to={link(kind === k.value ? "" : k.value)} aria-current={kind === k.value ? "true" : undefined}>
            <Paper withBorder radius="md" p="md" style={kind === k.value ? { borderColor: `var(--mantine-color-${k.color}-6)` } : undefined}>
              <Text size="sm" c="dimmed">
                {k.label}
              </Text>
              <Text fw={700} fz={28} c={answer.counts[k.value] ? `${k.color}.7` : undefined} data-testid={`warning-count-${k.value}`}>
                {answer.counts[k.value]}
              </Text>
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>
      <Paper withBorder radius="md" p="md">
        <Form method="get" action={BASE}>
          <Group align="flex-end" mb="sm">
            <NativeSelect name="warehouseId" label="仓库" defaultValue={warehouseId} data={[{ value: "", label: "全部仓库" }, ...warehouses.map((w) => ({ value: String(w.id), label: w.warehouseName }))]} w={240} />
            {kind && <input type="hidden" name="kind" value={kind} />}
            <Button type="submit" variant="light">
              查询
            </Button>
          </Group>
        </Form>
        <Text size="sm" c="dimmed" mb="xs">
          临期：{answer.warnDays} 天内到期的有库存批次（参数设置 zhhq.expiry.warnDays）。上下限在 库存上下限 中设置。保险、年检：30 天内到期或已过期的车辆（不属于仓库）。
        </Text>
        <Table striped highlightOnHover withTableBorder data-testid="warnings">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>预警</Table.Th>
              <Table.Th>仓库</Table.Th>
              <Table.Th>物资 / 车辆</Table.Th>
              <Table.Th>批次号</Table.Th>
              <Table.Th>到期日期</Table.Th>
              <Table.Th ta="right">数量</Table.Th>
              <Table.Th ta="right">下限</Table.Th>
              <Table.Th ta="right">上限</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {answer.records.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text size="sm" c="dimmed" ta="center">
                    没有预警
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {answer.records.map((r, i) => (
              <Table.Tr key={`${r.kind}-${r.warehouseId}-${r.goodsId}-${r.batchNo ?? ""}-${i}`}>
                <Table.Td>
                  <Badge variant="light" color={colorOf(r.kind)}>
                    {r.kindLabel}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.warehouseName ?? "—"}</Table.Td>
                <Table.Td>
                  {r.subject !== null ? (
                    <Link to={r.link ?? "#"}>车辆 {r.subject}</Link>
                  ) : (
                    <Link to={`/zhhq/warehouserealdetail/index?warehouseId=${r.warehouseId}&goodsId=${r.goodsId}`}>
                      {r.goodsName}（{r.goodsCode}）
                    </Link>
                  )}
                </Table.Td>
                <Table.Td>{r.batchNo ?? "—"}</Table.Td>
                <Table.Td>{r.expiryDate ? `${r.expiryDate}（${expiryText(r.days ?? 0)}）` : "—"}</Table.Td>
                <Table.Td ta="right">
                  {r.subject !== null ? "—" : `${r.quantity}${r.unitName ?? ""}`}
                </Table.Td>
                <Table.Td ta="right">{r.lowerQuantity ?? "—"}</Table.Td>
                <Table.Td ta="right">{r.upperQuantity ?? "—"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </Stack>
  );
}
