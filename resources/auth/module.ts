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
} satisfies ModuleDeclaration<"auth">;
