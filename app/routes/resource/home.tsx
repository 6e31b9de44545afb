import { redirect } from "react-router";
import type { Route } from "./+types/home";

/** `/admin/sys/tenant` opens its list. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  return redirect(`${url.pathname.replace(/\/$/, "")}/index${url.search}`);
}
