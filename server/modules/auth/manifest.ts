import { authModule } from "../../../resources/auth/module";
import type { ServerModule } from "../manifest";
import { authEndpoints } from "./endpoints";
import { orgService } from "./org";
import { orgDiscountService } from "./orgDiscount";
import { permissionEndpoints } from "./permissionEndpoints";
import { roleService } from "./role";
import { userService } from "./user";

/** 权限管理 and sign-in on the server (decision 062). */
export const authManifest: ServerModule = {
  declaration: authModule,
  services: { "auth/org": orgService, "auth/user": userService, "auth/role": roleService, "auth/orgDiscount": orgDiscountService },
  endpoints: [...authEndpoints, ...permissionEndpoints],
  documentRules: {},
  ledgers: [],
  paymentHooks: [],
};
