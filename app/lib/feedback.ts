import { useSyncExternalStore } from "react";

/** A small store the shell renders: pending requests for the loading mask, the logout confirm, the error log. */
function createStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const pendingRequests = createStore(0);
/** Set once the page has shown a message: from then on the notification containers are mounted. */
export const notificationsWanted = createStore(false);

/**
 * Mantine's notifications load with the first message, since most page views show none. Messages shown before
 * a container mounts wait in Mantine's store and appear when it does.
 */
export function loadNotifications(): Promise<typeof import("@mantine/notifications")> {
  notificationsWanted.set(true);
  return import("@mantine/notifications");
}
export const logoutConfirm = createStore<{ open: boolean; message: string }>({ open: false, message: "" });

export interface ErrorLogEntry {
  message: string;
  stack: string | null;
  url: string;
  time: number;
}
export const errorLog = createStore<ErrorLogEntry[]>([]);

/** Spec §8: unhandled errors are kept when this list includes the build's mode. */
export const errorLogEnvironments = ["production"];
export const ERROR_LOG_LIMIT = 50;

export function recordError(error: unknown, url: string) {
  const entry: ErrorLogEntry = {
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? (error.stack ?? null) : null,
    url,
    time: Date.now(),
  };
  errorLog.set([entry, ...errorLog.get()].slice(0, ERROR_LOG_LIMIT));
}

export function useStore<T>(store: { get: () => T; subscribe: (l: () => void) => () => void }, serverValue: T): T {
  return useSyncExternalStore(store.subscribe, store.get, () => serverValue);
}
