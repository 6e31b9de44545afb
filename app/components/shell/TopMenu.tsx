import { Menu, UnstyledButton } from "@mantine/core";
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
          <Menu key={menu.id} trigger="click-hover" openDelay={60} closeDelay={120} position="bottom-start" offset={0} floatingStrategy="fixed" classNames={{ dropdown: classes.dropdown, item: classes.dropdownItem }}>
            <Menu.Target>
              <UnstyledButton className={classes.topItem} data-active={activeIds.has(menu.id) || undefined}>
                <MenuIcon name={menu.menuIcon} size={16} />
                {menu.menuName}
                <IconChevronDown size={12} />
              </UnstyledButton>
            </Menu.Target>
            <GroupDropdown menu={menu} activeIds={activeIds} open={open} />
          </Menu>
        ),
      )}
    </nav>
  );
}
