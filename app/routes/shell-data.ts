import type { UserInfo } from "../../resources/auth";
import type { Route } from "./+types/shell-data";
import { apiCall } from "~/lib/api.server";
import { shellDataOf } from "~/lib/shell-data.server";

/**
 * `GET /shell-data/{version}`: the signed-in user's menus, dictionaries and screen names (decision 019). The
 * version is a hash of the content, so the answer for a version never changes and the browser keeps it; any
 * other version answers the current content uncached. A user who must still change the password gets it too (the
 * shell around that page shows the menus); without a valid session the answer is the API's refusal, uncached.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const result = await apiCall<UserInfo | null>(request, context, "GET", "/api/v1/auth/user/info");
  if (result.status !== 200 || !result.data) {
    return Response.json({ status: result.status, message: result.message }, { status: 401, headers: { "Cache-Control": "no-store" } });
  }
  const shell = shellDataOf(result.data);
  const current = shell.version === params.version;
  return new Response(JSON.stringify(shell.data), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "private, max-age=31536000, immutable" : "no-store",
    },
  });
}
