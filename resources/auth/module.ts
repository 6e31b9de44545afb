import type { ModuleDeclaration } from "../modules";
import { org } from "./org";
import { orgDiscount } from "./orgDiscount";
import { role } from "./role";
import { test } from "./test";
import { user } from "./user";

/** 权限管理: organisations, users, roles (spec §2 /admin/auth). */
export const authModule = {
  name: "auth",
  resources: [org, user, role, orgDiscount, test],
  reports: [],
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
} satisfies ModuleDeclaration<"auth">;
