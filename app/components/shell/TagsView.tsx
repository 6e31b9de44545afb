import { useClickOutside, useWindowEvent } from "@mantine/hooks";
import { IconX } from "~/components/icons";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useRevalidator } from "react-router";
import { closeAllTags, closeOtherTags, closeTag, isAffix, type Tag } from "~/lib/tags";
import classes from "./tags.module.css";

export const CONTEXT_MENU_WIDTH = 105;

interface Props {
  tags: Tag[];
  titleOf: (pathname: string) => string;
  /** The tag key of the page shown (`screenKey`, or its list's for a sub-page with no name of its own). */
  current: string;
  onChange: (tags: Tag[]) => void;
}

/**
 * Opened pages as tags (spec §1): right click (or the menu key, Shift+F10) for refresh, close, close others and
 * close all.
 */
export function TagsView({ tags, titleOf, current, onChange }: Props) {
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [menu, setMenu] = useState<{ x: number; y: number; tag: Tag } | null>(null);
  const menuRef = useClickOutside<HTMLUListElement>(() => setMenu(null));
  const viewport = useRef<HTMLDivElement>(null);
  useWindowEvent("scroll", () => setMenu(null));
  // An opened menu takes the focus, so it works from the keyboard as from the mouse.
  useEffect(() => {
    if (menu) menuRef.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
  }, [menu, menuRef]);

  useEffect(() => {
    viewport.current?.querySelector<HTMLElement>("[data-active]")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [location.pathname]);

  function close(tag: Tag) {
    const next = closeTag(tags, tag.pathname);
    onChange(next);
    if (tag.pathname === current) navigate(next[next.length - 1]?.path ?? "/");
  }

  const tagElement = (tag: Tag) => viewport.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(tag.pathname)}"]`);

  function closeMenu() {
    if (!menu) return;
    tagElement(menu.tag)?.focus();
    setMenu(null);
  }

  function act(action: "refresh" | "close" | "others" | "all") {
    if (!menu) return;
    const { tag } = menu;
    closeMenu();
    if (action === "refresh") {
      if (tag.pathname === current) revalidator.revalidate();
      else navigate(tag.path);
    } else if (action === "close") close(tag);
    else if (action === "others") {
      onChange(closeOtherTags(tags, tag.pathname));
      if (tag.pathname !== current) navigate(tag.path);
    } else {
      const next = closeAllTags(tags);
      onChange(next);
      navigate(next[0]?.path ?? "/");
    }
  }

  function openMenu(event: React.MouseEvent | React.KeyboardEvent, tag: Tag) {
    event.preventDefault();
    // From the keyboard (the menu key, Shift+F10) the menu opens below the tag.
    const rect = event.currentTarget.getBoundingClientRect();
    const [left, top] = "clientX" in event && (event.clientX || event.clientY) ? [event.clientX, event.clientY] : [rect.left, rect.bottom];
    const x = Math.min(left + 15, window.innerWidth - CONTEXT_MENU_WIDTH - 4);
    setMenu({ x, y: top, tag });
  }

  /** The tabs pattern: arrows, Home and End move between tags; Delete closes one; the menu key opens its menu. */
  function onTagKeyDown(event: React.KeyboardEvent<HTMLAnchorElement>, tag: Tag) {
    const elements = [...(viewport.current?.querySelectorAll<HTMLElement>("[role=tab]") ?? [])];
    const index = elements.indexOf(event.currentTarget);
    const move = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: elements.length - 1 }[event.key];
    if (move !== undefined) {
      event.preventDefault();
      elements[(move + elements.length) % elements.length]?.focus();
    } else if (event.key === "Delete" && !isAffix(tag)) {
      event.preventDefault();
      (elements[index - 1] ?? elements[index + 1])?.focus();
      close(tag);
    } else if (event.key === "ContextMenu" || (event.shiftKey && event.key === "F10")) {
      openMenu(event, tag);
    }
  }

  function onMenuKeyDown(event: React.KeyboardEvent<HTMLUListElement>) {
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>("[role=menuitem]")];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: items.length - 1 }[event.key];
    if (move !== undefined) {
      event.preventDefault();
      items[(move + items.length) % items.length]?.focus();
    } else if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      closeMenu();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      (document.activeElement as HTMLElement | null)?.click();
    }
  }

  return (
    <div className={classes.bar} data-testid="tags-view">
      <div className={classes.scroller} ref={viewport}>
        <div className={classes.list} role="tablist" aria-label="已打开的页面">
          {tags.map((tag, index) => {
            const active = tag.pathname === current;
            const focusable = active || (index === 0 && !tags.some((t) => t.pathname === current));
            return (
              <Link
                key={tag.pathname}
                to={tag.path}
                role="tab"
                // Named by its title alone: the close mark inside (for the mouse; the keyboard has Delete) is not its name.
                aria-label={titleOf(tag.pathname)}
                aria-selected={active}
                className={classes.tag}
                tabIndex={focusable ? 0 : -1}
                data-active={active || undefined}
                data-path={tag.pathname}
                data-testid="tag"
                onContextMenu={(event) => openMenu(event, tag)}
                onKeyDown={(event) => onTagKeyDown(event, tag)}
                onAuxClick={(event) => {
                  if (event.button !== 1 || isAffix(tag)) return;
                  event.preventDefault();
                  close(tag);
                }}
              >
                {titleOf(tag.pathname)}
                {!isAffix(tag) && (
                  <span
                    className={classes.close}
                    role="button"
                    aria-label={`关闭 ${titleOf(tag.pathname)}`}
                    onClick={(event) => {
                      event.preventDefault();
                      event.stopPropagation();
                      close(tag);
                    }}
                  >
                    <IconX size={10} stroke={2.5} />
                  </span>
                )}
              </Link>
            );
          })}
        </div>
      </div>
      {menu && (
        <ul
          ref={menuRef}
          className={classes.contextMenu}
          style={{ left: menu.x, top: menu.y }}
          role="menu"
          aria-label={titleOf(menu.tag.pathname)}
          data-testid="tags-context-menu"
          onKeyDown={onMenuKeyDown}
        >
          <li role="menuitem" tabIndex={-1} onClick={() => act("refresh")}>
            刷新
          </li>
          {!isAffix(menu.tag) && (
            <li role="menuitem" tabIndex={-1} onClick={() => act("close")}>
              关闭
            </li>
          )}
          <li role="menuitem" tabIndex={-1} onClick={() => act("others")}>
            关闭其他
          </li>
          <li role="menuitem" tabIndex={-1} onClick={() => act("all")}>
            关闭所有
          </li>
        </ul>
      )}
    </div>
  );
}
