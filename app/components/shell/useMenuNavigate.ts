import { useNavigate } from "react-router";
import type { MenuNode } from "../../../resources/auth";
import { request } from "~/lib/request";
import { ACTIVE_MENU_KEY } from "~/lib/shell-state";

export function iframeHref(path: string) {
  return `/iframe/reportview?url=${encodeURIComponent(path)}`;
}

/** Where a menu entry's link points: the page itself, or the iframe page for `iframe` targets. */
export function menuHref(menu: MenuNode): string {
  const path = menu.menuPath ?? "/";
  return menu.menuTarget === "iframe" ? iframeHref(path) : path;
}

/**
 * Spec §2 menu click: `_blank` opens a new window signed in by a one-time ticket (never the token); `iframe`
 * goes to the iframe page; anything else is a route change. The clicked entry is remembered in local storage.
 */
export function useMenuNavigate() {
  const navigate = useNavigate();
  return async function open(menu: MenuNode, event?: React.MouseEvent) {
    if (event && (event.metaKey || event.ctrlKey || event.shiftKey || event.button === 1) && menu.menuTarget !== "_blank") return;
    event?.preventDefault();
    window.localStorage.setItem(ACTIVE_MENU_KEY, String(menu.id));
    if (menu.menuTarget === "_blank") {
      // Opened at once, inside the click, so no pop-up blocker stops it; the address follows the ticket. The server
      // appends the ticket, and only to this site's paths or allowed hosts (decision 011).
      const win = window.open("about:blank", "_blank");
      try {
        const body = { path: menu.menuPath ?? "/" };
        const { url } = await request<{ url: string }>("POST", "/api/v1/auth/ticket", { body, loading: false });
        if (win) win.location.href = url;
        else window.location.href = url;
      } catch {
        win?.close();
      }
      return;
    }
    navigate(menuHref(menu));
  };
}
