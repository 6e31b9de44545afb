import { useClickOutside, useWindowEvent } from "@mantine/hooks";
import { IconX } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useRevalidator } from "react-router";
import { closeAllTags, closeOtherTags, closeTag, isAffix, type Tag } from "~/lib/tags";
import classes from "./tags.module.css";

export const CONTEXT_MENU_WIDTH = 105;

interface Props {
  tags: Tag[];
  titleOf: (pathname: string) => string;
  onChange: (tags: Tag[]) => void;
}

/** Opened pages as tags (spec §1): right click for refresh, close, close others and close all. */
export function TagsView({ tags, titleOf, onChange }: Props) {
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [menu, setMenu] = useState<{ x: number; y: number; tag: Tag } | null>(null);
  const menuRef = useClickOutside(() => setMenu(null));
  const viewport = useRef<HTMLDivElement>(null);
  useWindowEvent("scroll", () => setMenu(null));

  useEffect(() => {
    viewport.current?.querySelector<HTMLElement>("[data-active]")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [location.pathname]);

  function close(tag: Tag) {
    const next = closeTag(tags, tag.pathname);
    onChange(next);
    if (tag.pathname === location.pathname) navigate(next[next.length - 1]?.path ?? "/");
  }

  function act(action: "refresh" | "close" | "others" | "all") {
    if (!menu) return;
    const { tag } = menu;
    setMenu(null);
    if (action === "refresh") {
      if (tag.pathname === location.pathname) revalidator.revalidate();
      else navigate(tag.path);
    } else if (action === "close") close(tag);
    else if (action === "others") {
      onChange(closeOtherTags(tags, tag.pathname));
      if (tag.pathname !== location.pathname) navigate(tag.path);
    } else {
      const next = closeAllTags(tags);
      onChange(next);
      navigate(next[0]?.path ?? "/");
    }
  }

  function openMenu(event: React.MouseEvent, tag: Tag) {
    event.preventDefault();
    const x = Math.min(event.clientX + 15, window.innerWidth - CONTEXT_MENU_WIDTH - 4);
    setMenu({ x, y: event.clientY, tag });
  }

  return (
    <div className={classes.bar} data-testid="tags-view">
      <div className={classes.scroller} ref={viewport}>
        <div className={classes.list} role="tablist" aria-label="已打开的页面">
          {tags.map((tag) => {
            const active = tag.pathname === location.pathname;
            return (
              <Link
                key={tag.pathname}
                to={tag.path}
                role="tab"
                aria-selected={active}
                className={classes.tag}
                data-active={active || undefined}
                data-testid="tag"
                onContextMenu={(event) => openMenu(event, tag)}
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
        <ul ref={menuRef} className={classes.contextMenu} style={{ left: menu.x, top: menu.y }} role="menu" data-testid="tags-context-menu">
          <li role="menuitem" tabIndex={0} onClick={() => act("refresh")}>
            刷新
          </li>
          {!isAffix(menu.tag) && (
            <li role="menuitem" tabIndex={0} onClick={() => act("close")}>
              关闭
            </li>
          )}
          <li role="menuitem" tabIndex={0} onClick={() => act("others")}>
            关闭其他
          </li>
          <li role="menuitem" tabIndex={0} onClick={() => act("all")}>
            关闭所有
          </li>
        </ul>
      )}
    </div>
  );
}
