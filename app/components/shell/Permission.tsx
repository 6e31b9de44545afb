import type { ReactNode } from "react";
import { usePermissions } from "../../lib/permissions";

export class PermissionCodeMissing extends Error {
  constructor() {
    super('need permission code! Like <Permission code="zhct:mealOrderComplaints:process">');
  }
}

/**
 * Spec §5/§6: renders its children only when the user holds the button permission `code`; an element marked
 * without a code is a programming error. The server refuses the action behind the code all the same.
 */
export function Permission({ code, children }: { code: string; children: ReactNode }) {
  const can = usePermissions();
  if (!code) throw new PermissionCodeMissing();
  return can(code) ? <>{children}</> : null;
}
