import type { Db } from "../../server/db";
import { DEFAULT_TENANT_ID, seedMenus, stableId } from "../../server/modules/seed";

/** Roles, tenants and menu entries the shell's journeys use (e2e/shell-*.spec.ts). */
export const shellFixture = {
  clerkRoleId: 501,
  auditorRoleId: 502,
  // e2e/shell-menus.spec.ts: a role of the canteen alone (and the dashboard), granted as assignMenus grants it.
  canteenOnlyRoleId: 503,
  alertTenants: { wide: { tenantId: 901, roleId: 911 }, narrow: { tenantId: 902, roleId: 912 } },
  // e2e/zhct-settle.spec.ts locks a month: in a tenant of its own, so the other journeys can still move money.
  settleTenant: { tenantId: 903, roleId: 913 },
  // e2e/zhct-points.spec.ts disables pay types: in a tenant of its own, so no other journey's payment is refused.
  pointsTenant: { tenantId: 907, roleId: 917 },
  // e2e/zhct-orders.spec.ts: its restaurant, meal time and menu of today, apart from the other canteen journeys.
  ordersTenant: { tenantId: 904, roleId: 914 },
  // e2e/zhct-cashier.spec.ts charges diners and prints the day's totals: a tenant of its own, so its sums are its own.
  cashierTenant: { tenantId: 905, roleId: 915 },
  // e2e/zhct-tickets.spec.ts: tickets applied for, approved and used in a tenant of their own.
  ticketTenant: { tenantId: 906, roleId: 916 },
  // e2e/zhct-rooms.spec.ts: rooms, reservations and plate bindings in a tenant of their own.
  roomTenant: { tenantId: 910, roleId: 920 },
  // e2e/zhct-defaults.spec.ts: default orders generated and paid for tomorrow, in a tenant of its own.
  defaultsTenant: { tenantId: 909, roleId: 919 },
  // e2e/zhct-bookings.spec.ts: its capacity counts only its own bookings.
  bookingTenant: { tenantId: 908, roleId: 918 },
  // e2e/zhct-surveys.spec.ts: recognitions, the image library and surveys, whose statistics count only its answers.
  survTenant: { tenantId: 911, roleId: 921 },
  // e2e/report.spec.ts: its figures are exact only if no other journey sells or tops up in its tenant.
  reportTenant: { tenantId: 912, roleId: 922 },
  // e2e/report-attendance.spec.ts: attendance reports over bookings, takeaways and top-ups of its own.
  attendanceTenant: { tenantId: 914, roleId: 924 },
  // e2e/report-settlement.spec.ts: the settlement reports' figures, over sales of its own.
  settleReportTenant: { tenantId: 913, roleId: 923 },
  // e2e/report-bank.spec.ts: its statement matches only the online payments and top-ups of its own tenant.
  bankTenant: { tenantId: 915, roleId: 925 },
  // e2e/shown.spec.ts: what the screens show (operation log in words, counts, wide tables), in a tenant of its own.
  shownTenant: { tenantId: 931, roleId: 941 },
  menus: {
    blank: { id: stableId("e2e:blank"), name: "图片资源（新窗口）", path: "/admin/sys/imageobj/index" },
    iframe: { id: stableId("e2e:iframe"), name: "内嵌看板", path: "/admin/dashboard" },
    restricted: { id: stableId("e2e:restricted"), name: "审计专用", path: "/admin/sys/printdevice/index" },
    miniapp: { id: stableId("e2e:miniapp"), name: "小程序入口", path: "/pages/index" },
    link: { id: stableId("e2e:url"), name: "外部链接", path: "https://example.com/" },
  },
} as const;

const audit = () => ({ created_at: Date.now(), created_by: null, updated_at: Date.now(), updated_by: null });

async function role(db: Db, tenantId: number, id: number, code: string, type: string) {
  await db.insertInto("role").values({ tenant_id: tenantId, id, role_code: code, role_name: code, role_type: type, status: 1, remark: null, ...audit() }).execute();
}

/** Runs before the e2e users are created: their roles and tenants must exist. */
export async function prepareShellFixtures(db: Db) {
  const { menus } = shellFixture;
  const extra = [
    { ...menus.blank, type: "page", target: "_blank", roles: null, sort: 91 },
    { ...menus.iframe, type: "page", target: "iframe", roles: null, sort: 92 },
    { ...menus.restricted, type: "page", target: "other", roles: "auditor", sort: 93 },
    { ...menus.miniapp, type: "miniapp", target: "other", roles: null, sort: 94 },
    { ...menus.link, type: "url", target: "_blank", roles: null, sort: 95 },
  ];
  for (const m of extra) {
    await db
      .insertInto("menu")
      .values({ id: m.id, subsystem_id: 1, parent_id: null, menu_name: m.name, menu_path: m.path, menu_icon: null, menu_type: m.type, menu_target: m.target, permission: null, roles: m.roles, sort: m.sort, status: 1, remark: null, ...audit() })
      .execute();
  }
  // A page with a button child holding a miniapp grandchild: only the page shows.
  await db
    .insertInto("menu")
    .values({ id: stableId("e2e:blank:button"), subsystem_id: 1, parent_id: menus.blank.id, menu_name: "按钮", menu_path: null, menu_icon: null, menu_type: "button", menu_target: "other", permission: "e2e:button", roles: null, sort: 0, status: 1, remark: null, ...audit() })
    .execute();

  // Clerks see the dashboard, the complaints (view and create, not process) and two system pages.
  const seeded = seedMenus();
  const pick = (path: string) => seeded.find((m) => m.menu_path === path)?.id as number;
  const complaints = pick("/zhct/mealordercomplaints/index");
  // The section (目录) that holds a page comes with it, as assignMenus grants the entries above a chosen one.
  const sectionOf = (id: number) => seeded.find((m) => m.id === id)?.parent_id as number;
  const imageObj = pick("/admin/sys/imageobj/index");
  const clerkMenus = [
    pick("/admin/dashboard"),
    pick("/zhct"),
    sectionOf(complaints),
    complaints,
    ...seeded.filter((m) => m.parent_id === complaints && m.permission !== "zhct:mealOrderComplaints:process").map((m) => m.id),
    pick("/admin/sys"),
    sectionOf(imageObj),
    imageObj,
    // The print-device list is readable to both: only the role restriction of its route tells them apart.
    sectionOf(pick("/admin/sys/printdevice/index")),
    pick("/admin/sys/printdevice/index"),
    menus.restricted.id,
  ];
  await role(db, DEFAULT_TENANT_ID, shellFixture.clerkRoleId, "clerk", "user");
  await role(db, DEFAULT_TENANT_ID, shellFixture.auditorRoleId, "auditor", "user");
  for (const roleId of [shellFixture.clerkRoleId, shellFixture.auditorRoleId]) {
    for (const menuId of clerkMenus) await db.insertInto("role_menu").values({ tenant_id: DEFAULT_TENANT_ID, role_id: roleId, menu_id: menuId }).execute();
  }

  // Each width's complaint-alert journey counts in a tenant of its own: an admin at 1280 px, a clerk who may
  // see and file complaints at 800 px.
  for (const [name, { tenantId, roleId }] of Object.entries(shellFixture.alertTenants)) {
    await db.insertInto("tenant").values({ id: tenantId, tenant_name: `告警测试食堂-${name}`, tenant_code: `alert-${name}`, contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
    if (name === "wide") await role(db, tenantId, roleId, "admin", "admin");
    else {
      await role(db, tenantId, roleId, "duty", "user");
      for (const menuId of [pick("/admin/dashboard"), pick("/zhct"), sectionOf(complaints), complaints, ...seeded.filter((m) => m.parent_id === complaints).map((m) => m.id)]) {
        await db.insertInto("role_menu").values({ tenant_id: tenantId, role_id: roleId, menu_id: menuId }).execute();
      }
    }
  }
  // The canteen's pages of two sections, and the dashboard: nothing else of 系统管理.
  await role(db, DEFAULT_TENANT_ID, shellFixture.canteenOnlyRoleId, "canteenOnly", "user");
  const cashier = pick("/zhct/cashier/index");
  const food = pick("/zhct/food/index");
  for (const menuId of [pick("/admin/dashboard"), pick("/zhct"), sectionOf(cashier), cashier, pick("/zhct/mealorder/index"), sectionOf(food), food]) {
    await db.insertInto("role_menu").values({ tenant_id: DEFAULT_TENANT_ID, role_id: shellFixture.canteenOnlyRoleId, menu_id: menuId }).execute();
  }
  const settle = shellFixture.settleTenant;
  await db.insertInto("tenant").values({ id: settle.tenantId, tenant_name: "结算测试食堂", tenant_code: "settle", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, settle.tenantId, settle.roleId, "admin", "admin");
  const points = shellFixture.pointsTenant;
  await db.insertInto("tenant").values({ id: points.tenantId, tenant_name: "积分测试食堂", tenant_code: "points", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, points.tenantId, points.roleId, "admin", "admin");
  const orders = shellFixture.ordersTenant;
  await db.insertInto("tenant").values({ id: orders.tenantId, tenant_name: "订单测试食堂", tenant_code: "orders", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, orders.tenantId, orders.roleId, "admin", "admin");
  const counter = shellFixture.cashierTenant;
  await db.insertInto("tenant").values({ id: counter.tenantId, tenant_name: "收银测试食堂", tenant_code: "cashier", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, counter.tenantId, counter.roleId, "admin", "admin");
  const tickets = shellFixture.ticketTenant;
  await db.insertInto("tenant").values({ id: tickets.tenantId, tenant_name: "餐券测试食堂", tenant_code: "tickets", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, tickets.tenantId, tickets.roleId, "admin", "admin");
  const rooms = shellFixture.roomTenant;
  await db.insertInto("tenant").values({ id: rooms.tenantId, tenant_name: "包间测试食堂", tenant_code: "rooms", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, rooms.tenantId, rooms.roleId, "admin", "admin");
  const defaults = shellFixture.defaultsTenant;
  await db.insertInto("tenant").values({ id: defaults.tenantId, tenant_name: "默认订餐测试食堂", tenant_code: "defaults", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, defaults.tenantId, defaults.roleId, "admin", "admin");
  const bookings = shellFixture.bookingTenant;
  await db.insertInto("tenant").values({ id: bookings.tenantId, tenant_name: "预约测试食堂", tenant_code: "bookings", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, bookings.tenantId, bookings.roleId, "admin", "admin");
  const surv = shellFixture.survTenant;
  await db.insertInto("tenant").values({ id: surv.tenantId, tenant_name: "满意度测试食堂", tenant_code: "surveys", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, surv.tenantId, surv.roleId, "admin", "admin");
  const reports = shellFixture.reportTenant;
  await db.insertInto("tenant").values({ id: reports.tenantId, tenant_name: "报表测试食堂", tenant_code: "reports", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, reports.tenantId, reports.roleId, "admin", "admin");
  const attendance = shellFixture.attendanceTenant;
  await db.insertInto("tenant").values({ id: attendance.tenantId, tenant_name: "考勤报表测试食堂", tenant_code: "attendance", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, attendance.tenantId, attendance.roleId, "admin", "admin");
  const settleReports = shellFixture.settleReportTenant;
  await db.insertInto("tenant").values({ id: settleReports.tenantId, tenant_name: "结算报表测试食堂", tenant_code: "settlereports", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, settleReports.tenantId, settleReports.roleId, "admin", "admin");
  const bank = shellFixture.bankTenant;
  await db.insertInto("tenant").values({ id: bank.tenantId, tenant_name: "对账测试食堂", tenant_code: "bank", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, bank.tenantId, bank.roleId, "admin", "admin");
  const shown = shellFixture.shownTenant;
  await db.insertInto("tenant").values({ id: shown.tenantId, tenant_name: "显示测试食堂", tenant_code: "shown", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, ...audit() }).execute();
  await role(db, shown.tenantId, shown.roleId, "admin", "admin");
  // Named as a user reads it: the dashboard shows a role's name, not its code.
  await db.updateTable("role").set({ role_name: "食堂管理员" }).where("id", "=", shown.roleId).execute();
}

/** Runs after the users exist: the side-bar user navigates by the side. */
export async function finishShellFixtures(db: Db) {
  await db.updateTable("user").set({ navigation_mode: "left" }).where("user_name", "in", ["shell.side", "shell.side2", "nav.side"]).execute();
}
