import { Menu } from "@mantine/core";
import { Link } from "react-router";
import type { MenuNode } from "../../../resources/auth";
import classes from "./menus.module.css";
import type { useMenuNavigate } from "./useMenuNavigate";
import { menuHref } from "./useMenuNavigate";

/** A folder's children as columns: each section (a `path` entry) a labelled column; the folder's own pages one more. */
export function menuColumns(menu: MenuNode): Array<{ section: MenuNode | null; pages: MenuNode[] }> {
  const pages = menu.children.filter((c) => c.menuType === "page");
  const sections = menu.children.filter((c) => c.menuType === "path").map((section) => ({ section, pages: section.children }));
  return pages.length ? [...sections, { section: null, pages }] : sections;
}

/**
 * A folder's dropdown (top bar, collapsed side bar). A module with sections opens as labelled columns side by side
 * (decision 053): every page in view at once, found by its section's name, one move of the mouse away; never taller
 * than the window, it scrolls itself when a window is too short.
 */
export function GroupDropdown({ menu, activeIds, open, label }: { menu: MenuNode; activeIds: Set<number>; open: ReturnType<typeof useMenuNavigate>; label?: boolean }) {
  const columns = menuColumns(menu);
  const sectioned = columns.some((c) => c.section);
  return (
    <Menu.Dropdown className={classes.panel} data-sectioned={sectioned || undefined} data-testid="menu-dropdown">
      {label && <Menu.Label className={classes.panelTitle}>{menu.menuName}</Menu.Label>}
      <div className={classes.columns}>
        {columns.map(({ section, pages }) => (
          <div key={section?.id ?? "pages"} className={classes.column} role="group" aria-label={section?.menuName ?? menu.menuName}>
            {section && <Menu.Label className={classes.sectionLabel}>{section.menuName}</Menu.Label>}
            {pages.map((page) => (
              <Menu.Item
                key={page.id}
                component={Link}
                to={menuHref(page)}
                data-active={activeIds.has(page.id) || undefined}
                onClick={(event: React.MouseEvent) => open(page, event)}
              >
                {page.menuName}
              </Menu.Item>
            ))}
          </div>
        ))}
      </div>
    </Menu.Dropdown>
  );
}
