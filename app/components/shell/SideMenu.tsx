import { NavLink, UnstyledButton } from "@mantine/core";
import { LiveMenu, LiveTooltip } from "~/lib/hydrated";
import { Link } from "react-router";
import type { MenuNode } from "../../../resources/auth";
import { GroupDropdown, menuColumns } from "./GroupDropdown";
import { MenuIcon } from "./menuIcon";
import classes from "./menus.module.css";
import { menuHref, useMenuNavigate } from "./useMenuNavigate";

/** The side bar's menu, a module's pages under their section names; collapsed it shows icons, and a folder's pages open beside it. */
export function SideMenu({ menus, activeIds, collapsed }: { menus: MenuNode[]; activeIds: Set<number>; collapsed: boolean }) {
  const open = useMenuNavigate();
  if (collapsed) {
    return (
      <nav className={classes.side} aria-label="主菜单" data-testid="side-menu">
        {menus.map((menu) =>
          menu.children.length === 0 ? (
            <LiveTooltip key={menu.id} label={menu.menuName} position="right" withArrow>
              <Link to={menuHref(menu)} className={classes.sideMini} data-active={activeIds.has(menu.id) || undefined} aria-label={menu.menuName} onClick={(event) => open(menu, event)}>
                <MenuIcon name={menu.menuIcon} size={20} />
              </Link>
            </LiveTooltip>
          ) : (
            <LiveMenu
              key={menu.id}
              trigger="click-hover"
              position="right-start"
              offset={0}
              floatingStrategy="fixed"
              classNames={{ dropdown: classes.dropdown, item: classes.dropdownItem }}
              target={
                <UnstyledButton className={classes.sideMini} data-active={activeIds.has(menu.id) || undefined} aria-label={menu.menuName}>
                  <MenuIcon name={menu.menuIcon} size={20} />
                </UnstyledButton>
              }
            >
              <GroupDropdown menu={menu} activeIds={activeIds} open={open} label />
            </LiveMenu>
          ),
        )}
      </nav>
    );
  }
  return (
    <nav className={classes.side} aria-label="主菜单" data-testid="side-menu">
      {menus.map((menu) =>
        menu.children.length === 0 ? (
          <NavLink
            key={menu.id}
            component={Link}
            to={menuHref(menu)}
            label={menu.menuName}
            leftSection={<MenuIcon name={menu.menuIcon} />}
            active={activeIds.has(menu.id)}
            className={classes.sideItem}
            onClick={(event: React.MouseEvent) => open(menu, event)}
          />
        ) : (
          <NavLink
            key={menu.id}
            label={menu.menuName}
            leftSection={<MenuIcon name={menu.menuIcon} />}
            defaultOpened={activeIds.has(menu.id)}
            className={classes.sideItem}
            classNames={{ children: classes.sideChildren }}
            childrenOffset={0}
          >
            {menuColumns(menu).map(({ section, pages }) => (
              <div key={section?.id ?? "pages"} role="group" aria-label={section?.menuName ?? menu.menuName}>
                {section && <div className={classes.sideSection}>{section.menuName}</div>}
                {pages.map((child) => (
                  <NavLink
                    key={child.id}
                    component={Link}
                    to={menuHref(child)}
                    label={child.menuName}
                    active={activeIds.has(child.id)}
                    className={`${classes.sideItem} ${classes.sideChild}`}
                    onClick={(event: React.MouseEvent) => open(child, event)}
                  />
                ))}
              </div>
            ))}
          </NavLink>
        ),
      )}
    </nav>
  );
}
