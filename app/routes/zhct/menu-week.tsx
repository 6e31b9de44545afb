import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { IconChevronLeft, IconChevronRight, IconList, IconPlus } from "~/components/icons";
import { Form, Link } from "react-router";
import { permissionCode } from "../../../resources/define";
import { foodMenu, foodMenuItem } from "../../../resources/zhct/menus";
import type { Route } from "./+types/menu-week";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { usePermissions } from "~/lib/permissions";
import classes from "./menus.module.css";
import { chinaDay } from "../../../resources/chinaTime";

const BASE = `${foodMenu.screenBase}/${foodMenu.screen}`;
const ITEMS = `${foodMenuItem.screenBase}/${foodMenuItem.screen}/index`;
const WEEKDAYS = ["周日", "周一", "周二", "周三", "周四", "周五", "周六"];
const MEAL_ORDER = ["breakfast", "lunch", "dinner", "midnight", "all"];
const DAY = 86_400_000;

interface MenuType {
  id: number;
  typeName: string;
  mealType: string;
  restaurantId: number;
  restaurantIdLabel: string | null;
  sort: number;
}
interface WeekMenu {
  id: number;
  menuDate: string;
  foodMenuTypeId: number;
  status: string;
  items: Array<{ foodName: string; price: number }>;
}

/** The Monday of the week a date (or today, in Beijing) falls in. */
function mondayOf(text: string | null): string {
  const today = chinaDay(Date.now());
  const date = text && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? text : today;
  const millis = Date.parse(`${date}T00:00:00Z`);
  return new Date(millis - ((new Date(millis).getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
}
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const monday = mondayOf(url.searchParams.get("week"));
  const restaurantId = url.searchParams.get("restaurantId") || null;
  const [week, types, holidays] = await Promise.all([
    apiCall<WeekMenu[]>(request, context, "GET", "/api/v1/zhct/foodMenu/findWeek", { query: { beginDate: monday, restaurantId } }),
    apiCall<{ records: MenuType[] }>(request, context, "GET", "/api/v1/zhct/foodMenuType/findPage", { query: { pageSize: 100, status: 1 } }),
    // Shown in the day's header when the user may see the calendar; batch create skips these days.
    apiCall<{ records: Array<{ holidayDate: string; holidayName: string; holidayType: string }> }>(request, context, "GET", "/api/v1/sys/holiday/findPage", {
      query: { pageSize: 10, holidayDateBegin: monday, holidayDateEnd: shift(monday, 6), holidayType: 1 },
    }),
  ]);
  requirePermitted(week);
  const allTypes = types.status === 200 ? types.data.records : [];
  const restaurants = [...new Map(allTypes.map((t) => [String(t.restaurantId), t.restaurantIdLabel ?? String(t.restaurantId)])).entries()];
  const rows = allTypes
    .filter((t) => !restaurantId || String(t.restaurantId) === restaurantId)
    .sort((a, b) => MEAL_ORDER.indexOf(a.mealType) - MEAL_ORDER.indexOf(b.mealType) || a.sort - b.sort || a.typeName.localeCompare(b.typeName, "zh"));
  return {
    monday,
    restaurantId,
    restaurants,
    rows,
    menus: week.status === 200 ? week.data : [],
    holidays: holidays.status === 200 ? Object.fromEntries(holidays.data.records.map((h) => [h.holidayDate, h.holidayName])) : {},
    error: week.status === 200 ? null : week.message,
    today: chinaDay(Date.now()),
  };
}

export function meta() {
  return [{ title: `每日菜单 - ${t.appTitle}` }];
}

export default function MenuWeek({ loaderData }: Route.ComponentProps) {
  const { monday, restaurantId, restaurants, rows, menus, holidays, error, today } = loaderData;
  const can = usePermissions();
  const dicts = useDicts();
  const days = Array.from({ length: 7 }, (_, i) => shift(monday, i));
  const byCell = new Map(menus.map((m) => [`${m.menuDate} ${m.foodMenuTypeId}`, m]));
  const weekHref = (date: string) => `${BASE}/index?week=${date}${restaurantId ? `&restaurantId=${restaurantId}` : ""}`;
  const mealLabel = (value: string) => dicts.foodMenuType?.find((o) => o.value === value)?.label ?? value;
  const canBatch = can(permissionCode(foodMenu, "batchCreate"));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={3}>每日菜单</Title>
          <Text size="sm" c="dimmed">
            {days[0]} 至 {days[6]}
          </Text>
        </div>
        <Group gap="xs">
          <Button component={Link} to={weekHref(shift(monday, -7))} variant="default" leftSection={<IconChevronLeft size={16} />}>
            上一周
          </Button>
          <Button component={Link} to={weekHref(mondayOf(null))} variant="default">
            本周
          </Button>
          <Button component={Link} to={weekHref(shift(monday, 7))} variant="default" rightSection={<IconChevronRight size={16} />}>
            下一周
          </Button>
          <Button component={Link} to={`${BASE}/list`} variant="default" leftSection={<IconList size={16} />}>
            列表视图
          </Button>
          {can(permissionCode(foodMenu, "create")) && (
            <Button component={Link} to={`${BASE}/create`} leftSection={<IconPlus size={16} />}>
              新增
            </Button>
          )}
        </Group>
      </Group>
      <Paper withBorder p="sm" radius="md">
        <Form method="get">
          <input type="hidden" name="week" value={monday} />
          <Group gap="sm" align="flex-end">
            <NativeSelect
              label="餐厅"
              name="restaurantId"
              defaultValue={restaurantId ?? ""}
              data={[{ value: "", label: "全部餐厅" }, ...restaurants.map(([value, label]) => ({ value, label }))]}
              w={220}
            />
            <Button type="submit" variant="light">
              查询
            </Button>
          </Group>
        </Form>
      </Paper>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {/* Wider than a phone: the region scrolls sideways, so a keyboard user must be able to reach it (its days may hold no link). */}
      <Paper withBorder radius="md" className={classes.weekPaper} component="section" tabIndex={0} aria-label="一周菜单，可左右滚动">
        <Table withColumnBorders className={classes.week} data-testid="menu-week">
          <Table.Thead>
            <Table.Tr>
              <Table.Th className={classes.typeColumn}>菜单类型</Table.Th>
              {days.map((date, i) => (
                <Table.Th key={date} className={date === today ? classes.today : undefined}>
                  <Text size="sm" fw={600}>
                    {WEEKDAYS[(i + 1) % 7]}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {date.slice(5)}
                  </Text>
                  {holidays[date] && (
                    <Badge size="xs" variant="light" color="red" mt={2}>
                      {holidays[date]}
                    </Badge>
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed" ta="center" py="lg">
                    还没有菜单类型，请先在「菜单类型」中新增
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((type) => (
              <Table.Tr key={type.id}>
                <Table.Td className={classes.typeColumn}>
                  <Text size="sm" fw={600}>
                    {type.typeName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {mealLabel(type.mealType)} · {type.restaurantIdLabel}
                  </Text>
                  {canBatch && (
                    <Anchor component={Link} to={`${BASE}/batch-create/${type.id}`} size="xs">
                      批量生成
                    </Anchor>
                  )}
                </Table.Td>
                {days.map((date) => {
                  const menu = byCell.get(`${date} ${type.id}`);
                  return (
                    <Table.Td key={date} className={date === today ? classes.today : undefined} data-date={date}>
                      {menu ? (
                        <Stack gap={4}>
                          <Group gap={6} wrap="nowrap">
                            <Badge size="sm" variant="light" color={menu.status === "1" ? "green" : "gray"}>
                              {menu.status === "1" ? "已发布" : "未发布"}
                            </Badge>
                            <Text size="xs" c="dimmed">
                              {menu.items.length} 道
                            </Text>
                          </Group>
                          {menu.items.slice(0, 3).map((item, i) => (
                            <Text key={i} size="xs" className={classes.dish} title={`${item.foodName} ${formatFen(item.price)}`}>
                              {item.foodName}
                            </Text>
                          ))}
                          {menu.items.length > 3 && (
                            <Text size="xs" c="dimmed">
                              等 {menu.items.length} 道
                            </Text>
                          )}
                          <Group gap={8}>
                            <Anchor component={Link} to={`${ITEMS}?foodMenuId=${menu.id}`} size="xs">
                              菜品
                            </Anchor>
                            <Anchor component={Link} to={`${BASE}/edit/${menu.id}`} size="xs">
                              {menu.status === "1" ? "编辑" : "发布"}
                            </Anchor>
                          </Group>
                        </Stack>
                      ) : (
                        <Text size="xs" c="dimmed" ta="center">
                          —
                        </Text>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </Stack>
  );
}
