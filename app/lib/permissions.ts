import { useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import type { MenuNode } from "../../resources/auth";
import { buttonPermissionsByMenu } from "./menus";
import { useShellData, type PageUser } from "./shell-data";

/** Permission codes of the user's menu entries (button codes, and page view codes). */
export function collectPermissionCodes(nodes: MenuNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (node.permission) into.add(node.permission);
    collectPermissionCodes(node.children, into);
  }
  return into;
}

export function useCurrentUser(): PageUser | null {
  return useRouteLoaderData<{ user: PageUser | null }>("root")?.user ?? null;
}

/** `admin` holds every code (spec §6); others hold those of their menus. */
export function usePermissions(): (code: string) => boolean {
  const user = useCurrentUser();
  const { menuTreeList } = useShellData();
  return useMemo(() => {
    if (!user) return () => false;
    if (user.roles.includes("admin")) return () => true;
    const codes = collectPermissionCodes(menuTreeList);
    return (code: string) => codes.has(code);
  }, [user, menuTreeList]);
}

/** Button codes grouped by the page menu they belong to (spec §6), for screens that list what a user may do. */
export function useButtonPermissions(): Record<string, string[]> {
  const user = useCurrentUser();
  const { menuTreeList } = useShellData();
  return useMemo(() => (user ? buttonPermissionsByMenu(menuTreeList) : {}), [user, menuTreeList]);
}
