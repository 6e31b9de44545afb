import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);

/** The CSP nonce: from the server render, or read back from the page's own scripts in the browser. */
export function useNonce(): string | undefined {
  const fromServer = useContext(NonceContext);
  if (fromServer !== undefined || typeof document === "undefined") return fromServer;
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}
