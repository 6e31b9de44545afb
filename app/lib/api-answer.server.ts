import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { ApiResult } from "./api.server";

/**
 * What a page does with the API's answer (issue 34): the one place where a 403 becomes the sign-in page, a refusal's
 * field messages are read, and a refused form is answered with the user's input and its messages.
 */

export type FieldErrors = Record<string, string[]>;

/** A loader's call the API refused with 403: the user may not open the page, so the page answers 401 (the sign-in page). */
export function requirePermitted(result: Pick<ApiResult<unknown>, "status">): void {
  if (result.status === 403) throw data(null, { status: 401 });
}

/** The field messages a refused call names (a 400's `data.fieldErrors`), when it names any. */
export function fieldErrorsOf(result: ApiResult<unknown>): FieldErrors | undefined {
  return (result.data as { fieldErrors?: FieldErrors } | null)?.fieldErrors;
}

/** A refusal's status for the page: the statuses a screen keeps (a conflict stays 409), 400 for the rest. */
export function refusalStatus(result: Pick<ApiResult<unknown>, "status">, kept: readonly number[] = [409]): number {
  return kept.includes(result.status) ? result.status : 400;
}

/** Conform's reply to a refused call: its field messages on their fields, else `message` (the API's) above the form. */
export function replyOf(
  submission: { reply(options: { fieldErrors: FieldErrors } | { formErrors: string[] }): SubmissionResult },
  result: ApiResult<unknown>,
  message = result.message || "Error",
): SubmissionResult {
  const fieldErrors = fieldErrorsOf(result);
  return submission.reply(fieldErrors ? { fieldErrors } : { formErrors: [message] });
}

/** A refused form's answer: the reply (the typed values stay, nothing is lost) with the refusal's status. */
export function formReply(
  submission: Parameters<typeof replyOf>[0],
  result: ApiResult<unknown>,
  options: { message?: string; kept?: readonly number[] } = {},
) {
  return data(replyOf(submission, result, options.message), { status: refusalStatus(result, options.kept) });
}

/** A refused step without a form of fields (a button, a confirmation): the API's message above the page, as `error`. */
export function errorReply(result: ApiResult<unknown>, fallback = "Error") {
  return data({ error: result.message || fallback }, { status: refusalStatus(result) });
}
