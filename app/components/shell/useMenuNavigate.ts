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

function withTicket(path: string, ticket: string) {
  const url = new URL(path, window.location.origin);
  url.searchParams.set("ticket", ticket);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : url.href;
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
      // Opened at once, inside the click, so no pop-up blocker stops it; the address follows the ticket.
      const win = window.open("about:blank", "_blank");
      try {
        const { ticket } = await request<{ ticket: string }>("POST", "/api/v1/auth/ticket", { loading: false });
        if (win) win.location.href = withTicket(menu.menuPath ?? "/", ticket);
        else window.location.href = withTicket(menu.menuPath ?? "/", ticket);
      } catch {
        win?.close();
      }
      return;
    }
    navigate(menuHref(menu));
  };
}
