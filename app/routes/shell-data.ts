import type { Route } from "./+types/shell-data";
import { requireUserInfo } from "~/lib/session.server";
import { shellDataOf } from "~/lib/shell-data.server";

/**
 * `GET /shell-data/{version}`: the signed-in user's menus, dictionaries and screen names (decision 019). The
 * version is a hash of the content, so the answer for a version never changes and the browser keeps it; any
 * other version answers the current content uncached.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUserInfo(request, context);
  const shell = shellDataOf(user);
  const current = shell.version === params.version;
  return new Response(shell.text, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "private, max-age=31536000, immutable" : "no-store",
    },
  });
}
