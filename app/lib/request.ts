import { loadNotifications, logoutConfirm, pendingRequests } from "./feedback";

/** Spec §7/§9: every browser call goes to this origin, times out after 150 s and expects {status, message, data}. */
export const REQUEST_TIMEOUT_MS = 150_000;
export const MESSAGE_DURATION_MS = 5_000;
export const LOGOUT_STATUSES = new Set([50008, 50012, 50014]);

export class RequestError extends Error {
  constructor(
    message: string,
    /** The envelope's status, or the HTTP status when there was no envelope, or 0 when the network failed. */
    readonly status: number,
    readonly data: unknown = null,
    /** status: the server answered with an envelope; http: it answered without one; network: no answer. */
    readonly kind: "status" | "http" | "network" = "status",
  ) {
    super(message);
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  /** false: no loading mask (background calls such as polling). */
  loading?: boolean;
  /** true: the caller handles failures; no message, no logout dialog. */
  quiet?: boolean;
}

export function showErrorMessage(message: string) {
  void loadNotifications().then(({ notifications }) =>
    notifications.show({
      color: "red",
      message,
      position: "top-center",
      autoClose: MESSAGE_DURATION_MS,
      withCloseButton: true,
      "data-testid": "error-message",
    }),
  );
}

export async function request<T = unknown>(method: "GET" | "POST", path: string, options: RequestOptions = {}): Promise<T> {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== null && value !== undefined && value !== "") url.searchParams.set(key, String(value));
  }
  const masked = options.loading !== false;
  if (masked) pendingRequests.set(pendingRequests.get() + 1);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`)), REQUEST_TIMEOUT_MS);
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        credentials: "same-origin",
        headers: { Accept: "application/json", ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}) },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal: controller.signal,
      });
    } catch (error) {
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      throw new RequestError(reason instanceof Error && reason.message !== "Failed to fetch" ? reason.message : "Network Error", 0, null, "network");
    }
    let envelope: { status: number; message?: string; data: T };
    try {
      envelope = await response.json();
    } catch {
      throw new RequestError(`Request failed with status code ${response.status}`, response.status, null, "http");
    }
    if (envelope.status !== 200) throw new RequestError(envelope.message || "Error", envelope.status, envelope.data ?? null);
    return envelope.data;
  } catch (error) {
    const failure = error instanceof RequestError ? error : new RequestError(error instanceof Error ? error.message : String(error), 0, null, "network");
    if (!options.quiet) {
      showErrorMessage(failure.message);
      if (failure.kind === "status" && LOGOUT_STATUSES.has(failure.status)) logoutConfirm.set({ open: true, message: failure.message });
    }
    throw failure;
  } finally {
    clearTimeout(timer);
    if (masked) pendingRequests.set(pendingRequests.get() - 1);
  }
}

/** Spec §4: signing out (or re-login) ends the session on the server and forgets the browser's shell state. */
export async function endSession() {
  await fetch("/logout", { method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin" }).catch(() => undefined);
}
