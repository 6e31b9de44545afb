import type { AppLoadContext } from "react-router";
import { apiCall } from "./api.server";

/** The caller's orgs of these kinds (餐厅, 档口) as a select's options, the kinds in the order given. */
export async function placeOptions(request: Request, context: AppLoadContext, orgTypes: readonly string[]): Promise<Array<{ value: string; label: string }>> {
  const options: Array<{ value: string; label: string }> = [];
  for (const orgType of orgTypes) {
    const page = await apiCall<{ records: Array<Record<string, unknown>> }>(request, context, "GET", "/api/v1/auth/org/findPage", { query: { pageSize: 100, orgType } });
    for (const r of page.data?.records ?? []) options.push({ value: String(r.id), label: String(r.orgName) });
  }
  return options;
}
