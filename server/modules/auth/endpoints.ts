import type { LoginConfig } from "../../../resources/auth";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { issueCaptcha, randomCaptchaText } from "../../auth/captcha";
import { endpoint, publicAccess, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { buildTree, menuRowsFor } from "../sys/menu";
import { messages } from "../messages";
import { decodeLoginField } from "./session";
import { login, logout } from "./session";
import { modifyPassword } from "./password";
import { getUserBrief, getUserInfo } from "./userInfo";

const encodedField = z.string().max(1000);
/** Passwords may come as `ENC:` text like the login form sends them, or plain. */
const passwordField = z
  .string()
  .max(1000)
  .transform((v) => (v.startsWith("ENC:") ? (decodeLoginField(v) ?? v) : v));

export const authEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/login",
    summary: "登录：username 与 password 为 ENC: 加 UTF-8 文本的 base64；成功返回 token",
    access: publicAccess,
    query: z.object({ captcha: z.string().max(20).optional(), checkKey: z.string().max(100).optional() }),
    body: z.object({ username: encodedField.min(1), password: encodedField.min(1) }),
    handle: (ctx, { query, body }) => login(ctx, { ...body, ...query }),
  }),
  endpoint({
    method: "POST",
    path: "/logout",
    summary: "退出登录：令牌作废",
    access: publicAccess,
    handle: async (ctx) => {
      await logout(ctx);
      // A sign-out form posted before JavaScript loads lands on the sign-in page.
      if ((ctx.request.headers.get("Content-Type") ?? "").includes("application/x-www-form-urlencoded")) {
        ctx.responseHeaders.set("Location", "/login");
        return new Response(null, { status: 303, headers: ctx.responseHeaders });
      }
      return null;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/auth/loginConfig",
    summary: "登录页配置：是否需要验证码",
    access: publicAccess,
    handle: (ctx): LoginConfig => ({ captchaEnabled: ctx.services.config.CANTEEN_CAPTCHA }),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/auth/captcha",
    summary: "验证码图片（SVG），5 分钟内有效，只能使用一次",
    access: publicAccess,
    query: z.object({ checkKey: z.string().min(8).max(100) }),
    handle: async (ctx, { query }) => {
      const text = (ctx.services.captchaText ?? randomCaptchaText)();
      const svg = await issueCaptcha(ctx.services.db, query.checkKey, text, ctx.now);
      return new Response(svg, { headers: { "Content-Type": "image/svg+xml", "Cache-Control": "no-store" } });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/auth/user/info",
    summary: "当前登录用户信息",
    access: { kind: "session", beforePasswordChange: true },
    handle: (ctx) => getUserInfo(ctx.services.db, (ctx as SessionContext).session),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/auth/user/brief",
    summary: "当前登录用户信息，不含菜单与字典（shellVersion 随二者变化，页面据此取缓存的菜单）",
    access: { kind: "session", beforePasswordChange: true },
    handle: (ctx) => getUserBrief(ctx.services.db, (ctx as SessionContext).session),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/auth/user/modifyPasswd",
    summary: "修改本人密码：oldPassword、newPassword（请求体或查询参数）",
    access: { kind: "session", beforePasswordChange: true },
    body: z.object({ oldPassword: passwordField.optional(), newPassword: passwordField.optional() }).optional(),
    query: z.object({ oldPassword: passwordField.optional(), newPassword: passwordField.optional() }),
    handle: async (ctx, { query, body }) => {
      const oldPassword = body?.oldPassword ?? query.oldPassword;
      const newPassword = body?.newPassword ?? query.newPassword;
      const fieldErrors: Record<string, string[]> = {};
      if (!oldPassword) fieldErrors.oldPassword = ["请输入原密码"];
      if (!newPassword) fieldErrors.newPassword = ["请输入新密码"];
      if (!oldPassword || !newPassword) throw new ApiError(Status.BAD_REQUEST, messages.validation, { fieldErrors });
      await modifyPassword(ctx as SessionContext, oldPassword, newPassword);
      return null;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/auth/user/getUserMenuTreeList",
    summary: "当前用户在某子系统下的菜单树",
    access: { kind: "session", beforePasswordChange: true },
    query: z.object({ subsystemId: recordId("子系统").optional() }),
    handle: async (ctx, { query }) =>
      buildTree(await menuRowsFor(ctx.services.db, (ctx as SessionContext).session, query.subsystemId)),
  }),
];
