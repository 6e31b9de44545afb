import { defineResource } from "../define";

/**
 * Menu entries of a subsystem (spec §3 menu node): a tree by parent. Buttons carry the permission codes that
 * guard API actions and page elements; `roles` restricts a route to some role codes. Global to all tenants.
 */
export const menu = defineResource({
  module: "sys",
  entity: "menu",
  screen: "menu",
  screenBase: "/admin/sys",
  table: "menu",
  title: "菜单",
  scope: "global",
  shellData: true,
  superOnly: true,
  tree: true,
  labelField: "menuName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "subsystemId", label: "子系统", type: "relation", relation: "sys/subsystem", required: true, filter: "eq" },
    { name: "parentId", label: "上级菜单", type: "treeParent", relation: "sys/menu", filter: "eq" },
    { name: "menuName", label: "菜单名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "menuType", label: "菜单类型", type: "enum", dict: "menuType", required: true, filter: "eq", defaultValue: "page" },
    {
      name: "menuPath",
      label: "菜单路径",
      type: "text",
      filter: "like",
      max: 300,
      description: "页面与目录填写站内路径（/admin/sys/tenant/index），外部链接填写完整网址",
    },
    { name: "menuIcon", label: "图标", type: "text", list: false, max: 50 },
    { name: "menuTarget", label: "打开方式", type: "enum", dict: "menuTarget", required: true, defaultValue: "other" },
    {
      name: "permission",
      label: "权限标识",
      type: "text",
      filter: "like",
      max: 100,
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_]*(:[A-Za-z0-9_]+)*$/, message: "权限标识由字母、数字和下划线组成，用冒号分隔，如 sys:menu:create" },
    },
    {
      name: "roles",
      label: "限定角色",
      type: "text",
      list: false,
      max: 300,
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_]*(,[A-Za-z][A-Za-z0-9_]*)*$/, message: "限定角色为角色编码，多个用英文逗号分隔" },
      description: "留空表示不限角色",
    },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, min: 0, max: 9999, defaultValue: 0 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

/** A row of the menu index (`GET /api/v1/sys/menu/treeRows`): an entry at its depth in the tree, as drawn. */
export interface MenuIndexRow {
  id: number;
  parentId: number | null;
  depth: number;
  menuName: string;
  menuType: string;
  menuPath: string | null;
  permission: string | null;
  sort: number;
  status: number;
  /** How many entries other than buttons sit directly under it, drawn or not. */
  entries: number;
  /** How many button codes sit directly under it, drawn or not. */
  buttons: number;
  /** Opened: everything under it is drawn (its entries, and a page's buttons). */
  open: boolean;
  /** Searching: the entry matches the words (the rows that do not are the matches' folders). */
  match: boolean;
}

/**
 * What the menu index draws of a subsystem (issue 38, decision 092): the tree's first `levels` levels, the entries
 * under the opened ones (`open`, their folders opened with them), or the matches of a search with their folders.
 */
export interface MenuIndexView {
  subsystem: { id: number; sysCode: string; sysName: string };
  /** The levels drawn whether opened or not: as many whole levels as fit a list page's rows. */
  levels: number;
  /** The entries opened as asked (those of this subsystem), or every one. */
  open: number[] | "all";
  rows: MenuIndexRow[];
  /** Every entry and button of the subsystem. */
  total: number;
  /** Searching: how many entries match, of which the first `shown` (in the tree's order) are drawn. */
  search: { matches: number; shown: number } | null;
}
