import { redirect } from "react-router";
import type { Route } from "./+types/home";
import { apiCall } from "~/lib/api.server";
import { landingPath, type SubsystemInfo } from "~/lib/menus";
import { HOME_PATH } from "~/lib/paths";
import { hasTokenCookie, requireUserInfo } from "~/lib/session.server";

/** Spec §2: `/` leads home; signed in, to the home of the subsystem the user works in (`landingPath`). */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!hasTokenCookie(request)) return redirect(HOME_PATH);
  const user = await requireUserInfo(request, context);
  const info = await apiCall<{ subsystems: SubsystemInfo[] }>(request, context, "GET", "/api/v1/auth/user/shellInfo");
  return redirect(landingPath(user.menuTreeList, info.status === 200 ? info.data.subsystems : []));
}
