import { Alert } from "@mantine/core";
import { Suspense, useEffect, useState } from "react";
import { lazyPart } from "~/lib/lazy-part";
import { PlainLines } from "./PlainLines";
import type { LinesProps } from "./lines";

// The grid and mantine-react-table come in a chunk of their own, asked for only once a page with lines is up (a
// document's editor, a dish's 用料): no other page loads them (decisions 061, 088).
const LinesGrid = lazyPart(() => import("./LinesGrid").then((m) => ({ default: m.LinesGrid })));

/**
 * The lines' own refusal (too few, too many) above them; the plain table until the page's scripts run, then the grid,
 * the same inputs by the same names.
 */
export function LinesEditor(props: LinesProps & { totalled: string[] }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    // Counted before the page is marked hydrated, so a test waiting for the page's parts waits for the grid too.
    LinesGrid.start();
    setHydrated(true);
  }, []);
  const refusal = props.errors.lines?.[0];
  return (
    <>
      {refusal && (
        <Alert color="red" variant="light" role="alert" mb="sm" data-testid="lines-error">
          {refusal}
        </Alert>
      )}
      {hydrated ? (
        <Suspense fallback={<PlainLines {...props} />}>
          <LinesGrid {...props} />
        </Suspense>
      ) : (
        <PlainLines {...props} />
      )}
    </>
  );
}
