import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { resourceKey } from "../resources/define";
import { documents, resources } from "../resources/index";
import { menuGroups } from "../resources/modules";
import { reports } from "../resources/report/index";

/** System-management screens that are not the generic list or form; each replaces the generated route of its path. */
const sysScreens = [
  route("admin/sys/menu/index", "routes/sys/menu-tree.tsx"),
  route("admin/sys/menu/create/:subsystemId", "routes/sys/menu-form.tsx", { id: "sys/menu:create-in" }),
  route("admin/sys/menu/edit/:id", "routes/sys/menu-form.tsx", { id: "sys/menu:edit-tree" }),
  route("admin/sys/device/setting/:id", "routes/sys/device-setting.tsx"),
  route("admin/sys/merchantconfig/edit/:merchantId/:parameterCode", "routes/sys/merchant-config-edit.tsx"),
  route("admin/sys/merchantconfig/edit/:id", "routes/sys/merchant-config-by-id.tsx"),
  route("admin/sys/iccard/init", "routes/sys/iccard-init.tsx", { id: "sys/iccardInit:init" }),
  route("admin/sys/iccard/create", "routes/sys/iccard-init.tsx", { id: "sys/iccardInit:create-init" }),
];
/** Permission-management screens that are not the generic list or form (spec §2 /admin/auth). */
const authScreens = [
  route("admin/auth/org/index", "routes/auth/org-tree.tsx"),
  route("admin/auth/user/create", "routes/auth/user-create.tsx", { id: "auth/user:create-any" }),
  route("admin/auth/user/create/:orgId", "routes/auth/user-create.tsx", { id: "auth/user:create-in" }),
  route("admin/auth/user/assignRole/:id", "routes/auth/user-assign.tsx", { id: "auth/user:assignRole" }),
  route("admin/auth/user/assignWarehouse/:id", "routes/auth/user-assign.tsx", { id: "auth/user:assignWarehouse" }),
  route("admin/auth/user/assignRestaurant/:id", "routes/auth/user-assign.tsx", { id: "auth/user:assignRestaurant" }),
  route("admin/auth/user/resetPasswd/:id", "routes/auth/user-reset-password.tsx"),
  route("admin/auth/role/assignMenu/:id", "routes/auth/role-assign-menu.tsx"),
];
/** Canteen screens that are not lists: the week of daily menus and the two batch-create screens. */
const zhctScreens = [
  route("zhct/foodmenu/index", "routes/zhct/menu-week.tsx"),
  route("zhct/foodmenu/list", "routes/resource/list.tsx", { id: "zhct/foodMenu:list-view" }),
  route("zhct/foodmenu/batch-create/:foodMenuTypeId", "routes/zhct/menu-batch.tsx", { id: "zhct/foodMenu:batch-create" }),
  route("zhct/foodmenuTemplate/batch-create/:foodMenuTypeId", "routes/zhct/menu-batch.tsx", { id: "zhct/foodMenuTemplate:batch-create" }),
  route("zhct/userinfosendmessage/resend/:id", "routes/zhct/message-resend.tsx"),
  route("zhct/useraccountcharge/:kind", "routes/zhct/charge-form.tsx", { id: "zhct/userAccountCharge:form" }),
  route("zhct/useraccountcharge/receipt/:id", "routes/zhct/charge-receipt.tsx"),
  route("zhct/useraccountcharge/reverse/:id", "routes/zhct/charge-reverse.tsx"),
  route("zhct/usericcard/:op/:id", "routes/zhct/card-action.tsx"),
  route("zhct/userinfo/account/:id", "routes/zhct/userinfo-account.tsx"),
  route("zhct/userinfo/audit/:id", "routes/zhct/userinfo-audit.tsx"),
  route("zhct/autochargesetting/run/:id", "routes/zhct/autocharge-run.tsx"),
  route("zhct/useraccountmonthsettle/:step", "routes/zhct/month-settle.tsx"),
  route("zhct/chargedailyreport/index", "routes/zhct/charge-daily-report.tsx"),
  route("zhct/userinfodept/index", "routes/zhct/userinfo-dept.tsx"),
  route("zhct/useraccountintegraldetail/adjust", "routes/zhct/points-adjust.tsx"),
  route("zhct/mealorder/create", "routes/zhct/order-create.tsx"),
  route("zhct/mealorder/detail/:id", "routes/zhct/order-detail.tsx"),
  route("zhct/cashier/index", "routes/zhct/cashier.tsx"),
  route("zhct/cashierprint/index", "routes/zhct/cashier-print.tsx"),
  route("zhct/mealticket/approve/:id", "routes/zhct/ticket-approve.tsx"),
  route("zhct/userplate/release/:id", "routes/zhct/binding-release.tsx", { id: "zhct/userPlate:release" }),
  route("zhct/useraccounttable/release/:id", "routes/zhct/binding-release.tsx", { id: "zhct/userAccountTable:release" }),
  route("zhct/userorderdefaultgenerate/generate", "routes/zhct/default-generate.tsx"),
  route("zhct/userorderdefaultpc/cancel/:id", "routes/zhct/accompany-cancel.tsx"),
  route("zhct/orderingfood/:op/:id", "routes/zhct/ordering-food-action.tsx"),
  route("zhct/imagedetectlog/mark/:id", "routes/zhct/detect-mark.tsx"),
  route("zhct/imagelibrary/confirm/:id", "routes/zhct/image-confirm.tsx"),
  route("zhct/satisfactionsurve/create", "routes/zhct/survey-form.tsx", { id: "zhct/satisfactionSurve:create-form" }),
  route("zhct/satisfactionsurve/edit/:id", "routes/zhct/survey-form.tsx", { id: "zhct/satisfactionSurve:edit-form" }),
  route("zhct/satisfactionsurvestatics/index", "routes/zhct/survey-statics.tsx"),
];
const ownScreens = new Set([...sysScreens, ...authScreens, ...zhctScreens].map((r) => `/${r.path}`));

/** Each declared resource gets its list, create and edit screens (spec §2 paths). */
const resourceRoutes = resources.flatMap((def) => {
  const base = `${def.screenBase}/${def.screen}`;
  const key = resourceKey(def);
  return [
    route(base, "routes/resource/home.tsx", { id: `${key}:home` }),
    route(`${base}/index`, "routes/resource/list.tsx", { id: `${key}:list` }),
    ...(def.actions.includes("create") && !def.indexOnly ? [route(`${base}/create`, "routes/resource/form.tsx", { id: `${key}:create` })] : []),
    ...(def.actions.includes("update") && !def.indexOnly ? [route(`${base}/edit/:id`, "routes/resource/form.tsx", { id: `${key}:edit` })] : []),
  ].filter((r) => !ownScreens.has(r.path ?? ""));
});

/** Every declared report: its page in the shell, and its print view alone on the page (decision 030). */
const reportScreens = reports.map((def) => route(`report/${def.screen}/index`, "routes/report/report.tsx", { id: `report/${def.entity}` }));
const reportPrints = reports.map((def) => route(`report/${def.screen}/print`, "routes/report/report.tsx", { id: `report/${def.entity}:print` }));

/** 银行对账 takes a file, so it is not a declared report: its own page and print view (decision 034). */
const bankScreen = route("report/bankreconcile/index", "routes/report/bank.tsx", { id: "report/bankReconcile" });
const bankPrint = route("report/bankreconcile/print", "routes/report/bank.tsx", { id: "report/bankReconcile:print" });

/**
 * Each declared document gets its list, editor, detail page and print view (decision 061): one set of route modules
 * for all of them. The print view stands alone on the page, as the reports' do.
 */
const documentRoutes = documents.flatMap((doc) => {
  const base = `${doc.screenBase}/${doc.screen}`;
  const key = resourceKey(doc);
  return [
    route(base, "routes/resource/home.tsx", { id: `${key}:home` }),
    route(`${base}/index`, "routes/document/list.tsx", { id: `${key}:list` }),
    route(`${base}/create`, "routes/document/editor.tsx", { id: `${key}:create` }),
    route(`${base}/edit/:id`, "routes/document/editor.tsx", { id: `${key}:edit` }),
    route(`${base}/detail/:id`, "routes/document/detail.tsx", { id: `${key}:detail` }),
  ];
});
const documentPrints = documents.map((doc) =>
  route(`${doc.screenBase}/${doc.screen}/print/:id`, "routes/document/print.tsx", { id: `${resourceKey(doc)}:print` }),
);

const groupRoutes = menuGroups.map((group) => route(group.path, "routes/resource/group.tsx", { id: `group:${group.path}` }));

export default [
  route("login", "routes/login.tsx"),
  route("shell-data/:version", "routes/shell-data.ts"),
  route("theme/:file", "routes/theme-css.ts"),
  route("icons.svg", "routes/icons-svg.ts"),
  route("bench/bare/:module/:entity", "routes/bench/bare-page.tsx"),
  index("routes/home.tsx"),
  route("admin", "routes/admin-index.tsx"),
  route("subsystem/admin", "routes/subsystem.tsx", { id: "subsystem-admin" }),
  route("subsystem/:sysCode", "routes/subsystem.tsx", { id: "subsystem" }),
  route("subsystem/:sysCode/:pageId", "routes/subsystem.tsx", { id: "subsystem-page" }),
  ...reportPrints,
  bankPrint,
  ...documentPrints,
  layout("routes/shell.tsx", [
    route("admin/dashboard", "routes/dashboard.tsx", { id: "admin-dashboard" }),
    route("dashboard", "routes/dashboard.tsx", { id: "dashboard" }),
    route("admin/auth/user/modifyPasswd", "routes/modify-password.tsx"),
    route("profile/index", "routes/profile.tsx"),
    route("iframe/reportview", "routes/iframe.tsx"),
    route("zhct/mealordercomplaints/process/:id", "routes/zhct/complaint-process.tsx"),
    ...groupRoutes,
    ...sysScreens,
    ...authScreens,
    ...zhctScreens,
    ...reportScreens,
    bankScreen,
    ...resourceRoutes,
    ...documentRoutes,
    route("ceshi/ceshi", "routes/ceshi.tsx"),
    route("bench/plain/:module/:entity", "routes/bench/plain-list.tsx"),
    route("404", "routes/not-found.tsx", { id: "not-found" }),
    route("401", "routes/unauthorized.tsx"),
    route("*", "routes/not-found.tsx", { id: "catch-all" }),
  ]),
] satisfies RouteConfig;
