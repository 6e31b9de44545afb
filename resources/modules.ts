/** Menu groups of the subsystems: each module's screens sit under one `path` entry (spec §2). */
export interface MenuGroup {
  subsystem: string;
  path: string;
  title: string;
  icon: string;
  sort: number;
  /** Where the group's bare path redirects (spec: /admin/sys → /admin/sys/tenant). */
  home: string;
}

export const menuGroups: MenuGroup[] = [
  { subsystem: "admin", path: "/admin/sys", title: "系统管理", icon: "settings", sort: 10, home: "/admin/sys/tenant" },
  { subsystem: "admin", path: "/admin/auth", title: "权限管理", icon: "shield-lock", sort: 20, home: "/admin/auth/org" },
  { subsystem: "zhct", path: "/zhct", title: "智慧餐厅", icon: "tools-kitchen-2", sort: 30, home: "/zhct/bowls" },
  { subsystem: "report", path: "/report", title: "报表", icon: "chart-bar", sort: 40, home: "/report/dailyordersummary/index" },
];

/** Button labels of the generated permission codes. */
export const actionLabels = { create: "新增", update: "修改", delete: "删除", export: "导出", import: "导入" } as const;

/**
 * Screens that are reports over other tables (no table of their own): each gets a menu page under its module's
 * group and a view permission `module:entity:view`, like a declared resource's list.
 */
export interface ReportScreen {
  module: string;
  entity: string;
  screen: string;
  screenBase: string;
  title: string;
  /** Button permissions of the screen (`module:entity:<action>`), seeded under its page entry. */
  buttons?: Record<string, string>;
}
