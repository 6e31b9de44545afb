declare module "react-router" {
  interface AppLoadContext {
    /** The CSP nonce of this response; every inline script carries it. */
    nonce: string;
    clientAddress: string;
    /** Sends a request to the canteen API: in-process, or to CANTEEN_API_URL. */
    apiFetch: (request: Request) => Promise<Response>;
  }
}

export {};
