import { UnstyledButton } from "@mantine/core";
import { LiveMenu } from "~/lib/hydrated";
import { useRef, useState } from "react";
import { IconChevronDown } from "~/components/icons";
import { Link } from "react-router";
import type { MenuNode } from "../../../resources/auth";
import { GroupDropdown } from "./GroupDropdown";
import { MenuIcon } from "./menuIcon";
import classes from "./menus.module.css";
import { menuHref, useMenuNavigate } from "./useMenuNavigate";

/** The horizontal menu of `top` navigation: first-level pages are links, folders open their pages (by section) on hover. */
export function TopMenu({ menus, activeIds }: { menus: MenuNode[]; activeIds: Set<number> }) {
  const open = useMenuNavigate();
  return (
    <nav className={classes.top} aria-label="主菜单" data-testid="top-menu">
      {menus.map((menu) =>
        menu.children.length === 0 ? (
          <Link
            key={menu.id}
            to={menuHref(menu)}
            className={classes.topItem}
            data-active={activeIds.has(menu.id) || undefined}
            onClick={(event) => open(menu, event)}
          >
            <MenuIcon name={menu.menuIcon} size={16} />
            {menu.menuName}
          </Link>
        ) : (
          <TopFolder key={menu.id} menu={menu} activeIds={activeIds} open={open} />
        ),
      )}
    </nav>
  );
}

/**
 * A folder of the top bar. Mantine's hover opening is delayed (60 ms, so a mouse crossing the bar opens nothing) and
 * re-armed when the pointer enters the dropdown; a pick inside those 60 ms closed the menu and then the timer opened it
 * again, left open on the new page with no pointer near it. After a pick the folder stays shut until the pointer (or a
 * click, or the keyboard) comes back to its button.
 */
function TopFolder({ menu, activeIds, open }: { menu: MenuNode; activeIds: Set<number>; open: ReturnType<typeof useMenuNavigate> }) {
  const [opened, setOpened] = useState(false);
  const picked = useRef(false);
  const rearm = () => {
    picked.current = false;
  };
  const pick: typeof open = (page, event) => {
    picked.current = true;
    return open(page, event);
  };
  return (
    <LiveMenu
      opened={opened}
      onChange={(next) => (next && picked.current ? undefined : setOpened(next))}
      trigger="click-hover"
      openDelay={60}
      closeDelay={120}
      position="bottom-start"
      offset={0}
      floatingStrategy="fixed"
      classNames={{ dropdown: classes.dropdown, item: classes.dropdownItem }}
      target={
        <UnstyledButton className={classes.topItem} data-active={activeIds.has(menu.id) || undefined} onMouseEnter={rearm} onClick={rearm}>
          <MenuIcon name={menu.menuIcon} size={16} />
          {menu.menuName}
          <IconChevronDown size={12} />
        </UnstyledButton>
      }
    >
      <GroupDropdown menu={menu} activeIds={activeIds} open={pick} />
    </LiveMenu>
  );
}
