import { data, redirect } from "react-router";
import type { MenuNode } from "../../resources/auth";
import type { Route } from "./+types/subsystem";
import { apiCall } from "~/lib/api.server";
import { flatten, type SubsystemInfo } from "~/lib/menus";
import { HOME_PATH } from "~/lib/paths";
import { requireUserInfo, safeRedirect } from "~/lib/session.server";
import { SUBSYSTEM_COOKIE, YEAR_SECONDS } from "~/lib/shell-state";

const subsystemCookie = (id: number) => `${SUBSYSTEM_COOKIE}=${id}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax`;

/**
 * Spec §2: `/subsystem/{sysCode}` makes the subsystem active and goes to `/dashboard`; `/subsystem/{sysCode}/{pageId}`
 * opens one of its pages; `/subsystem/admin` goes back to the system-management home.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const sysCode = params.sysCode ?? "admin";
  const info = await apiCall<{ subsystems: SubsystemInfo[] }>(request, context, "GET", "/api/v1/auth/user/shellInfo");
  const subsystem = info.data?.subsystems.find((s) => s.sysCode === sysCode);
  if (!subsystem) throw data(null, { status: 404 });
  const headers = { "Set-Cookie": subsystemCookie(subsystem.id) };
  if (!params.pageId) return redirect(sysCode === "admin" ? HOME_PATH : "/dashboard", { headers });
  const menus = await apiCall<MenuNode[]>(request, context, "GET", "/api/v1/auth/user/getUserMenuTreeList", { query: { subsystemId: subsystem.id } });
  const page = flatten(menus.data ?? []).find((m) => String(m.id) === params.pageId && m.menuType === "page" && m.menuPath);
  if (!page) throw data(null, { status: 404 });
  const path = page.menuPath as string;
  // A redirect stays on this site (decision 011); a page on another host opens in the iframe page, which checks
  // IFRAME_ALLOWED_HOSTS.
  const embedded = page.menuTarget === "iframe" || safeRedirect(path, "") === "";
  return redirect(embedded ? `/iframe/reportview?url=${encodeURIComponent(path)}` : path, { headers });
}

export default function Subsystem() {
  return null;
}
