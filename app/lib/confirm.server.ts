import { data } from "react-router";
import type { ConfirmRefusal } from "~/components/ConfirmAction";
import type { ApiResult } from "./api.server";
import { fieldErrorsOf, refusalStatus } from "./api-answer.server";

/** The reason a confirmation step sent (decision 055), trimmed; "" when none. */
export function reasonOf(form: FormData): string {
  return String(form.get("reason") ?? "").trim();
}

/**
 * A refused step's answer for `ConfirmAction`: the API's message on the reason field when it named `reason`, else
 * above the step; 409 stays 409. The typed reason comes back so nothing typed is lost.
 */
export function refusalOf(result: ApiResult<unknown>, reason: string) {
  const fieldErrors = fieldErrorsOf(result);
  const reasonError = fieldErrors?.reason?.[0] ?? null;
  const refusal: ConfirmRefusal = { error: reasonError ? null : result.message || "Error", reasonError, reason };
  return data(refusal, { status: refusalStatus(result) });
}
