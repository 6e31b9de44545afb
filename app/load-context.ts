import type { ShellData } from "./lib/shell-data";

declare module "react-router" {
  interface AppLoadContext {
    /** The CSP nonce of this response; every inline script carries it. */
    nonce: string;
    clientAddress: string;
    /** Sends a request to the canteen API: in-process, or to CANTEEN_API_URL. */
    apiFetch: (request: Request) => Promise<Response>;
    /**
     * The JSON an in-process API answer was made from (none from a remote API): a loader parses it rather than
     * reading it back out of the response's body stream, which cost a list page's five calls 2 % of its server time.
     */
    envelopeText?: (response: Response) => string | undefined;
    /** Tells the server a page's response was rendered whole into `body`, so it is written in one piece. */
    keepWholeBody?: (response: Response, body: Uint8Array) => void;
    /** The signed-in user's menus, dictionaries and screen names for this render (set by the root loader). */
    shellData?: ShellData;
  }
}

export {};
