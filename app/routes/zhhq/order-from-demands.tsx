import { Alert, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { purchse as doc } from "../../../resources/zhhq/purchase";
import type { Route } from "./+types/order-from-demands";
import { DateField } from "~/components/dates/DateField";
import { IconArrowLeft } from "~/components/icons";
import { RelationSelect } from "~/components/resource/RelationSelect";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { pickers } from "~/lib/document.server";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

/**
 * 采购单 from approved requests (issue 41, decision 072): choose the warehouse, tick its approved requests no order
 * holds yet, the supplier and the expected date; 生成 creates the order (`purchse/create` with `demandIds`), its lines
 * the requests' approved quantities at the supplier's contract prices, as a draft to check and submit. A plain form:
 * it works before scripts load; a refusal shows at its field, with the choices kept.
 */

type DemandLine = {
  goodsId: number;
  goodsCode: string;
  goodsName: string;
  unitName: string;
  quantity: number;
  approvedQuantity: number;
};
type Demand = {
  id: number;
  docNo: string;
  needDate: string | null;
  restaurantName: string | null;
  remark: string | null;
  lines: DemandLine[];
};
const BASE = `${doc.screenBase}/${doc.screen}`;
const API = "/api/v1/zhhq";
const CHOSEN = ["supplierId", "warehouseId"];
const idOf = (value: FormDataEntryValue | string | null) => (/^\d{1,16}$/.test(String(value ?? "")) ? String(value) : "");

async function orderable(request: Request, context: Route.LoaderArgs["context"], warehouseId: string) {
  if (!warehouseId) return [];
  const result = await apiCall<Demand[]>(request, context, "GET", `${API}/purchseDemand/orderable`, { query: { warehouseId } });
  requirePermitted(result);
  return result.status === 200 ? result.data : [];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const chosen = {
    supplierId: idOf(url.searchParams.get("supplierId")),
    warehouseId: idOf(url.searchParams.get("warehouseId")),
  };
  const header = {
    ...doc.header,
    fields: doc.header.fields.filter((f) => CHOSEN.includes(f.name)),
  };
  const [picked, demands] = await Promise.all([pickers(request, context, [header], [chosen]), orderable(request, context, chosen.warehouseId)]);
  return {
    ...picked,
    chosen,
    expectedDate: url.searchParams.get("expectedDate") ?? "",
    demands,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const typed = {
    supplierId: idOf(form.get("supplierId")),
    warehouseId: idOf(form.get("warehouseId")),
    expectedDate: String(form.get("expectedDate") ?? "").trim(),
    remark: String(form.get("remark") ?? "").trim(),
    demandIds: form.getAll("demandIds").map(String),
  };
  // Another warehouse's requests: the page again, for it, keeping the other choices.
  if (form.get("intent") === "find") {
    const query = new URLSearchParams(
      Object.entries({
        warehouseId: typed.warehouseId,
        supplierId: typed.supplierId,
        expectedDate: typed.expectedDate,
      }).filter(([, v]) => v),
    );
    return redirect(`${BASE}/fromDemand?${query}`);
  }
  const body = {
    ...(typed.supplierId ? { supplierId: Number(typed.supplierId) } : {}),
    ...(typed.warehouseId ? { warehouseId: Number(typed.warehouseId) } : {}),
    ...(typed.expectedDate ? { expectedDate: typed.expectedDate } : {}),
    ...(typed.remark ? { remark: typed.remark } : {}),
    demandIds: typed.demandIds.map(Number),
    lines: [],
  };
  const result = await apiCall<{ id: number; docNo: string; lines: unknown[] }>(request, context, "POST", `${API}/purchse/create`, { body });
  if (result.status !== 200) {
    const errors = fieldErrorsOf(result) ?? {};
    const at = Object.fromEntries(Object.entries(errors).map(([key, messages]) => [key, messages?.[0]]));
    // 没有选择申请 is the lines' refusal here (the order has no hand lines); a line's missing price names its goods.
    const demandError = at.demandIds ?? at.lines;
    const fieldsNamed = ["supplierId", "warehouseId", "expectedDate", "remark", "demandIds", "lines"].some((k) => at[k]);
    return data(
      {
        typed,
        errors: { ...at, demandIds: demandError },
        error: fieldsNamed ? null : result.message,
      },
      { status: refusalStatus(result) },
    );
  }
  const made = result.data;
  return redirect(`${BASE}/detail/${made.id}`, {
    headers: {
      "Set-Cookie": flashCookie(`已生成采购单 ${made.docNo}（${made.lines.length} 行，按合同价），请核对后提交`),
    },
  });
}

export function meta() {
  return [{ title: `按采购申请生成采购单 - ${t.appTitle}` }];
}

export default function OrderFromDemands({ loaderData, actionData }: Route.ComponentProps) {
  const { options, sources, chosen, demands } = loaderData;
  const navigation = useNavigation();
  const typed = actionData?.typed;
  const errors = (actionData?.errors ?? {}) as Record<string, string | undefined>;
  const ticked = new Set(typed?.demandIds ?? []);
  const warehouseId = typed?.warehouseId ?? chosen.warehouseId;
  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Title order={3}>按采购申请生成采购单</Title>
        <Button component={Link} to={`${BASE}/create`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回手工新增
        </Button>
      </Group>
      <Form method="post">
        <Stack gap="md">
          {actionData?.error && (
            <Alert color="red" variant="light" role="alert">
              {actionData.error}
            </Alert>
          )}
          <Paper withBorder radius="md" p="lg">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Stack gap={6}>
                <RelationSelect
                  name="warehouseId"
                  label="仓库"
                  source={sources.warehouseId ?? null}
                  defaultValue={warehouseId}
                  initialOptions={options.warehouseId ?? []}
                  required
                  error={errors.warehouseId}
                />
                <Group justify="flex-end">
                  <Button type="submit" name="intent" value="find" variant="default" size="xs" formNoValidate>
                    查询该仓库的申请
                  </Button>
                </Group>
              </Stack>
              <RelationSelect
                name="supplierId"
                label="供应商"
                source={sources.supplierId ?? null}
                defaultValue={typed?.supplierId ?? chosen.supplierId}
                initialOptions={options.supplierId ?? []}
                required
                error={errors.supplierId}
              />
              <DateField name="expectedDate" label="预计到货日期" defaultValue={typed?.expectedDate ?? loaderData.expectedDate} error={errors.expectedDate} />
              <TextInput name="remark" label="备注" maxLength={500} defaultValue={typed?.remark ?? ""} error={errors.remark} />
            </SimpleGrid>
          </Paper>
          <Paper withBorder radius="md" p="lg">
            <Title order={5} mb={4}>
              已审核、尚未下单的采购申请
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              勾选的申请按核定数量加入采购单明细，单价取该供应商在订单日期有效的合同价；一张申请只能下一次单。
            </Text>
            {errors.demandIds && (
              <Alert color="red" variant="light" role="alert" mb="sm" data-testid="demand-error">
                {errors.demandIds}
              </Alert>
            )}
            {!warehouseId ? (
              <Text c="dimmed">请先选择仓库，再点“查询该仓库的申请”。</Text>
            ) : demands.length === 0 ? (
              <Text c="dimmed">该仓库没有已审核、尚未下单的采购申请。</Text>
            ) : (
              <Stack gap="sm" data-testid="orderable-demands">
                {demands.map((d) => (
                  <Paper key={d.id} withBorder radius="sm" p="sm">
                    <Checkbox
                      name="demandIds"
                      value={String(d.id)}
                      defaultChecked={ticked.has(String(d.id))}
                      label={
                        <Text fw={500} span>
                          {d.docNo}
                          <Text span c="dimmed" fw={400} ml="sm" size="sm">
                            {[d.restaurantName, d.needDate ? `需用 ${d.needDate}` : null, d.remark].filter(Boolean).join(" · ")}
                          </Text>
                        </Text>
                      }
                    />
                    <Table mt="xs" verticalSpacing={4} fz="sm">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>物资编码</Table.Th>
                          <Table.Th>物资</Table.Th>
                          <Table.Th>单位</Table.Th>
                          <Table.Th ta="right">申请数量</Table.Th>
                          <Table.Th ta="right">核定数量</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {d.lines.map((l, i) => (
                          <Table.Tr key={i}>
                            <Table.Td>{l.goodsCode}</Table.Td>
                            <Table.Td>{l.goodsName}</Table.Td>
                            <Table.Td>{l.unitName}</Table.Td>
                            <Table.Td ta="right">{l.quantity}</Table.Td>
                            <Table.Td ta="right">{l.approvedQuantity}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Paper>
                ))}
              </Stack>
            )}
          </Paper>
          <Group justify="flex-end" gap="sm">
            <Button component={Link} to={`${BASE}/index`} variant="default">
              取消
            </Button>
            <Button type="submit" name="intent" value="create" loading={navigation.state === "submitting" && navigation.formData?.get("intent") === "create"}>
              生成采购单
            </Button>
          </Group>
        </Stack>
      </Form>
    </Stack>
  );
}
