import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { fetchShellData, SHELL_DATA_PATH } from "./lib/shell-data";

// In production this module starts after the page's first paint: see `deferModuleScripts` (decision 008).
// The shell data (menus, dictionaries) is a cached resource of its own (decision 019); hydration renders what the
// server rendered, so it waits for it (a failed fetch gives empty shell data and does not stop hydration).
const shellDataUrl = document.querySelector<HTMLMetaElement>('meta[name="shell-data"]')?.content;
const ready = shellDataUrl?.startsWith(SHELL_DATA_PATH) ? fetchShellData(shellDataUrl.slice(SHELL_DATA_PATH.length)) : null;

void Promise.resolve(ready).then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
