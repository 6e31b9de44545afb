import type { ModuleScreens } from "../modules";

/**
 * 权限管理's menu groups and its own screens (decision 062): read by the route table, the seeded menus and the group
 * pages' loaders, never by a page's scripts, so they are kept apart from the declarations every list page loads.
 */
export const authScreens = {
  menuGroups: [
    { subsystem: "admin", path: "/admin/auth", title: "权限管理", icon: "shield-lock", sort: 20, home: "/admin/auth/org" },
  ],
  /** The screens that are not the generic list or form. */
  screens: [
    { path: "admin/auth/org/index", file: "routes/auth/org-tree.tsx", replacesGenerated: true },
    { path: "admin/auth/user/create", file: "routes/auth/user-create.tsx", id: "auth/user:create-any", replacesGenerated: true },
    { path: "admin/auth/user/create/:orgId", file: "routes/auth/user-create.tsx", id: "auth/user:create-in" },
    { path: "admin/auth/user/assignRole/:id", file: "routes/auth/user-assign.tsx", id: "auth/user:assignRole" },
    { path: "admin/auth/user/assignWarehouse/:id", file: "routes/auth/user-assign.tsx", id: "auth/user:assignWarehouse" },
    { path: "admin/auth/user/assignRestaurant/:id", file: "routes/auth/user-assign.tsx", id: "auth/user:assignRestaurant" },
    { path: "admin/auth/user/resetPasswd/:id", file: "routes/auth/user-reset-password.tsx" },
    { path: "admin/auth/role/assignMenu/:id", file: "routes/auth/role-assign-menu.tsx" },
  ],
} satisfies ModuleScreens;
