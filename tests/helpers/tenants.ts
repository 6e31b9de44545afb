import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { loginAs, type TestApp } from "./api";

export interface TenantFixture {
  tenantId: number;
  tenantCode: string;
  adminRoleId: number;
  rootOrgId: number;
  /** The tenant's first user, holding its `admin` role (not a super admin). */
  adminUserId: number;
  adminUserName: string;
  adminPassword: string;
  token: string;
}

interface Page<T> {
  records: T[];
  total: number;
}

async function ok<T>(promise: Promise<{ body: { status: number; message: string; data: T } }>, what: string): Promise<T> {
  const { body } = await promise;
  if (body.status !== 200) throw new Error(`${what}: ${body.status} ${body.message} ${JSON.stringify(body.data)}`);
  return body.data;
}

/** The super admin works inside the tenant (or back home with the default tenant). */
export function switchTenant(app: TestApp, superToken: string, tenantId: number) {
  return ok(app.call("POST", "/api/v1/sys/tenant/switch", { token: superToken, body: { tenantId } }), "switch tenant");
}

/**
 * Creates a tenant as the super admin (which seeds its root org and `admin` role), then its first user with that
 * role, signs that user in and changes the first-login password. The super admin ends back in its own tenant.
 */
export async function createTenantWithAdmin(app: TestApp, superToken: string, code: string): Promise<TenantFixture> {
  const tenant = await ok<{ id: number }>(
    app.call("POST", "/api/v1/sys/tenant/create", { token: superToken, body: { tenantName: `租户${code}`, tenantCode: code, status: "1" } }),
    "create tenant",
  );
  await switchTenant(app, superToken, tenant.id);
  const roles = await ok<Page<{ id: number }>>(app.call("GET", "/api/v1/auth/role/findPage?roleCode=admin", { token: superToken }), "find role");
  const orgs = await ok<Page<{ id: number; parentId: number | null }>>(app.call("GET", "/api/v1/auth/org/findPage", { token: superToken }), "find org");
  const adminUserName = `${code}.admin`;
  const initial = `Initial-${code}-Pass-1`;
  const adminPassword = `Changed-${code}-Pass-2`;
  const user = await ok<{ id: number }>(
    app.call("POST", "/api/v1/auth/user/create", {
      token: superToken,
      body: { user: { userName: adminUserName, realName: `${code}管理员`, orgId: orgs.records[0].id, status: "1", password: initial }, roleIds: [roles.records[0].id] },
    }),
    "create tenant admin",
  );
  await switchTenant(app, superToken, DEFAULT_TENANT_ID);
  const token = await loginAs(app, adminUserName, initial);
  await ok(app.call("POST", "/api/v1/auth/user/modifyPasswd", { token, body: { oldPassword: initial, newPassword: adminPassword } }), "modifyPasswd");
  return {
    tenantId: tenant.id,
    tenantCode: code,
    adminRoleId: roles.records[0].id,
    rootOrgId: orgs.records[0].id,
    adminUserId: user.id,
    adminUserName,
    adminPassword,
    token,
  };
}

/** Calls that must succeed: the data, or an error naming the call. */
export function expectOk<T>(app: TestApp, method: "GET" | "POST", path: string, token: string, body?: unknown): Promise<T> {
  return ok<T>(app.call(method, path, { token, body }), `${method} ${path}`);
}
