import { Suspense, useState, type ReactNode } from "react";

/**
 * Renders its (lazily loaded) children from the first time `when` is true and keeps them mounted after, so a
 * dialog's code stays out of the page until somebody opens it and its closing transition still plays.
 */
export function Deferred({ when, children }: { when: boolean; children: ReactNode }) {
  const [mounted, setMounted] = useState(when);
  if (when && !mounted) setMounted(true);
  return mounted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
