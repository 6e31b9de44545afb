import { Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from "@mantine/core";
import { data, Form, Link } from "react-router";
import type { WarningKindCount } from "../../../resources/zhhq/closing";
import type { Route } from "./+types/warning";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

/**
 * 库存预警 (issue 41): the warnings as things stand (server/modules/zhhq/warning.ts) — stock, batches, supplier
 * licences — by kind with their counts (the kinds are the API's), filtered by warehouse with a plain GET form (it
 * works before scripts load).
 */

type Warning = {
  kind: string;
  kindLabel: string;
  subject: string;
  link: string | null;
  detail: string;
  unitName: string | null;
  quantity: number | null;
  lowerQuantity: number | null;
  upperQuantity: number | null;
  expiryDate: string | null;
  days: number | null;
};
type Answer = { records: Warning[]; kinds: WarningKindCount[]; warnDays: number };
const BASE = "/zhhq/warehousewarning/index";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const warehouseId = /^\d+$/.test(url.searchParams.get("warehouseId") ?? "") ? (url.searchParams.get("warehouseId") as string) : "";
  const asked = url.searchParams.get("kind") ?? "";
  const params = new URLSearchParams({ ...(warehouseId ? { warehouseId } : {}), ...(/^[a-zA-Z]{1,30}$/.test(asked) ? { kind: asked } : {}) });
  let result = await apiCall<Answer>(request, context, "GET", `/api/v1/zhhq/warehouseWarning/findPage?${params}`);
  requirePermitted(result);
  // A kind that is not one (an old bookmark) shows every kind.
  if (result.status === 400 && params.has("kind")) {
    params.delete("kind");
    result = await apiCall<Answer>(request, context, "GET", `/api/v1/zhhq/warehouseWarning/findPage?${params}`);
  }
  if (result.status !== 200) throw data(result.message, { status: 500 });
  const kind = params.get("kind") ?? "";
  const warehouses = await apiCall<{ records: Array<{ id: number; warehouseName: string; status: string }> }>(request, context, "GET", "/api/v1/zhhq/warehouse/findPage?pageSize=100&status=1");
  return { answer: result.data, warehouseId, kind, warehouses: warehouses.status === 200 ? warehouses.data.records : [] };
}

export function meta() {
  return [{ title: `库存预警 - ${t.appTitle}` }];
}


function expiryText(days: number): string {
  return days < 0 ? `已过期 ${-days} 天` : days === 0 ? "今天到期" : `剩 ${days} 天`;
}

export default function WarehouseWarning({ loaderData }: Route.ComponentProps) {
  const { answer, warehouseId, kind, warehouses } = loaderData;
  const colorOf = (value: string) => answer.kinds.find((k) => k.value === value)?.color ?? "gray";
  const link = (next: string) => `${BASE}?${new URLSearchParams({ ...(warehouseId ? { warehouseId } : {}), ...(next ? { kind: next } : {}) })}`;
  return (
    <Stack gap="md">
      <Title order={3}>库存预警</Title>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: Math.min(answer.kinds.length, 7) }} data-testid="warning-counts">
        {answer.kinds.map((k) => (
          <UnstyledButton key={k.value} component={Link} to={link(kind === k.value ? "" : k.value)} aria-current={kind === k.value ? "true" : undefined}>
            <Paper withBorder radius="md" p="md" style={kind === k.value ? { borderColor: `var(--mantine-color-${k.color}-6)` } : undefined}>
              <Text size="sm" c="dimmed">
                {k.label}
                {k.note ? `（${k.note}）` : ""}
              </Text>
              <Text fw={700} fz={28} c={k.count ? `${k.color}.7` : undefined} data-testid={`warning-count-${k.value}`}>
                {k.count}
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
          临期：{answer.warnDays} 天内到期的有库存批次（参数设置 zhhq.expiry.warnDays）。上下限在 库存上下限 中设置。资质到期、车辆的保险与年检到期不分仓库，按仓库查询时不列。
        </Text>
        <Table striped highlightOnHover withTableBorder data-testid="warnings">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>预警</Table.Th>
              <Table.Th>对象</Table.Th>
              <Table.Th>说明</Table.Th>
              <Table.Th>到期日期</Table.Th>
              <Table.Th ta="right">数量</Table.Th>
              <Table.Th ta="right">下限</Table.Th>
              <Table.Th ta="right">上限</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {answer.records.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text size="sm" c="dimmed" ta="center">
                    没有预警
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {answer.records.map((r, i) => (
              <Table.Tr key={`${r.kind}-${r.subject}-${r.detail}-${i}`}>
                <Table.Td>
                  <Badge variant="light" color={colorOf(r.kind)}>
                    {r.kindLabel}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.link ? <Link to={r.link}>{r.subject}</Link> : r.subject}</Table.Td>
                <Table.Td>{r.detail}</Table.Td>
                <Table.Td>{r.expiryDate ? `${r.expiryDate}（${expiryText(r.days ?? 0)}）` : "—"}</Table.Td>
                <Table.Td ta="right">{r.quantity === null ? "—" : `${r.quantity}${r.unitName ?? ""}`}</Table.Td>
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
