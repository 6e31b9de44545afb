import { data, redirect } from "react-router";
import { apiPath } from "../../../resources/define";
import { merchantConfig } from "../../../resources/sys/merchantConfig";
import type { Route } from "./+types/merchant-config-by-id";
import { apiCall } from "~/lib/api.server";

/** The list's edit link names the row by id; the spec's edit page is addressed by merchant and parameter. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const result = await apiCall<{ merchantId: number; parameterCode: string }>(request, context, "GET", apiPath(merchantConfig, "getInfo"), {
    query: { id: params.id },
  });
  if (result.status === 404 || result.status === 400) throw data(null, { status: 404 });
  if (result.status !== 200) throw data(null, { status: 401 });
  const base = `${merchantConfig.screenBase}/${merchantConfig.screen}`;
  return redirect(`${base}/edit/${result.data.merchantId}/${encodeURIComponent(result.data.parameterCode)}`);
}
