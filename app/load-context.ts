import type { ShellData } from "./lib/shell-data";

declare module "react-router" {
  interface AppLoadContext {
    /** The CSP nonce of this response; every inline script carries it. */
    nonce: string;
    clientAddress: string;
    /** Sends a request to the canteen API: in-process, or to CANTEEN_API_URL. */
    apiFetch: (request: Request) => Promise<Response>;
    /** The signed-in user's menus, dictionaries and screen names for this render (set by the root loader). */
    shellData?: ShellData;
  }
}

export {};
