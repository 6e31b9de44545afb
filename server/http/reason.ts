import { fieldSchema } from "../../resources/schemas";
import { fieldError } from "./envelope";

/**
 * Why an action that moves money or cannot be undone was taken (decision 055): 取消订单, 冲正, … Its API body names
 * it `reason` (at most 200 characters, kept in the ledger line's remark and the operation log); the schema leaves it
 * optional so that the action's own refusals (not found, 409 on its state) come first, and the handler then refuses
 * a missing one with 400 naming `reason`. Internal callers (a booking cancelling its order) pass their own reason.
 */
export const reasonField = (label: string) => fieldSchema({ name: "reason", label, type: "text", max: 200 }, false);

/** The reason given, trimmed; none: 400 「请输入{label}」 on the field `reason`. */
export function requireReason(reason: unknown, label: string): string {
  const text = typeof reason === "string" ? reason.trim() : "";
  if (!text) throw fieldError("reason", `请输入${label}`);
  return text;
}
