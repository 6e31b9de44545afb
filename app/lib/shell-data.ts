import { createContext, use, useContext } from "react";
import { useRouteLoaderData } from "react-router";
import type { MenuNode, UserInfo } from "../../resources/auth";
import type { ScreenNames } from "../../resources/define";

/**
 * What the whole app reads but no single page owns: the user's menu tree (with its button codes), the dictionaries'
 * items and the screens' names. It grows with the product, so it does not travel in every page's hydration data:
 * the browser fetches it once per version from `/shell-data/{version}` (immutable, cached) and the server renders
 * from the request's copy (decision 019).
 */
export interface ShellData {
  menuTreeList: MenuNode[];
  dictItemList: UserInfo["dictItemList"];
  screens: ScreenNames[];
}

/** The user as every page's data carries it: the shell data stays out, named by its version. */
export type PageUser = Omit<UserInfo, "menuTreeList" | "dictItemList" | "token"> & { shellVersion: string };

export const SHELL_DATA_PATH = "/shell-data/";
const EMPTY: ShellData = { menuTreeList: [], dictItemList: [], screens: [] };

/** On the server, the request's shell data (set by the root loader, provided by `entry.server`). */
export const ServerShellData = createContext<ShellData | null>(null);

type Thenable = Promise<ShellData> & { status?: "pending" | "fulfilled" | "rejected"; value?: ShellData };
const loaded = new Map<string, Thenable>();

/**
 * Starts (or reuses) the browser's fetch of one version; `use` reads it without suspending once it has arrived.
 * A failed fetch gives empty shell data for that version rather than an error page (the page's own content still
 * works); the next version, or a reload, asks again.
 */
export function fetchShellData(version: string): Thenable {
  let pending = loaded.get(version);
  if (!pending) {
    const promise: Thenable = fetch(`${SHELL_DATA_PATH}${version}`, { credentials: "same-origin" })
      .then(async (response) => {
        if (!response.ok) throw new Error(`shell data ${response.status}`);
        return (await response.json()) as ShellData;
      })
      .catch(() => EMPTY);
    promise.status = "pending";
    void promise.then((value) => Object.assign(promise, { status: "fulfilled", value }));
    pending = promise;
    loaded.set(version, pending);
  }
  return pending;
}

export function useShellData(): ShellData {
  const server = useContext(ServerShellData);
  const version = useRouteLoaderData<{ user: PageUser | null }>("root")?.user?.shellVersion;
  if (server) return server;
  if (typeof document === "undefined" || !version) return EMPTY;
  return use(fetchShellData(version) as Promise<ShellData>);
}
