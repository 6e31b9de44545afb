import { redirect } from "react-router";
import { menuGroups } from "../../../resources/index";
import type { Route } from "./+types/group";

/** Spec §2: `/admin/sys` redirects to `/admin/sys/tenant`. */
export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const group = menuGroups.find((g) => g.path === pathname.replace(/\/$/, ""));
  return redirect(group?.home ?? "/admin/dashboard");
}
