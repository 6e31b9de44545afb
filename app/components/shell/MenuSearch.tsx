import { useWindowEvent } from "@mantine/hooks";
import { IconSearch } from "~/components/icons";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { MenuNode } from "../../../resources/auth";
import type { SubsystemInfo } from "~/lib/menus";
import classes from "./menuSearch.module.css";
import { useMenuNavigate } from "./useMenuNavigate";

interface Hit {
  page: MenuNode;
  /** Where it sits: subsystem, module and section names. */
  trail: string;
}

/** Every page of the user's menus with the names above it, for the search to match and show. */
export function searchablePages(nodes: MenuNode[], subsystemName: (id: number) => string, above: string[] = []): Hit[] {
  return nodes.flatMap((node) =>
    node.menuType === "page" && node.menuPath
      ? [{ page: node, trail: (above.length ? above : [subsystemName(node.subsystemId)]).join(" / ") }]
      : searchablePages(node.children, subsystemName, node.menuType === "path" ? [...above, node.menuName] : above),
  );
}

/**
 * Pages whose name holds every word typed; when none does, those whose section or module does ("设置" lists a
 * module's settings). Matching the places always would bury "收银台" under every page of 订单与收银.
 */
export function findPages(hits: Hit[], query: string): Hit[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const holds = (text: string) => words.every((w) => text.toLowerCase().includes(w));
  const byName = hits.filter((h) => holds(h.page.menuName));
  return byName.length ? byName : hits.filter((h) => holds(`${h.page.menuName} ${h.trail}`));
}

/**
 * The header's menu search (issue 38): a few characters of a screen's name list the screens, as typed; arrows choose,
 * Enter or a click opens, Escape leaves. Ctrl+K (or /) from anywhere puts the cursor in it. Plain elements and the
 * ARIA combobox pattern: the results exist only while there is something typed, so no page carries them.
 */
export function MenuSearch({ menus, subsystems, dark }: { menus: MenuNode[]; subsystems: SubsystemInfo[]; dark: boolean }) {
  const open = useMenuNavigate();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [focused, setFocused] = useState(false);
  const searching = query.trim() !== "";
  // Made once something is typed: every page renders the field, few are searched from (and never on the server).
  const pages = useMemo(() => (searching ? searchablePages(menus, (sid) => subsystems.find((s) => s.id === sid)?.sysName ?? "") : []), [searching, menus, subsystems]);
  const results = useMemo(() => findPages(pages, query), [pages, query]);
  const expanded = focused && searching;
  useEffect(() => {
    if (expanded) document.getElementById(`${id}-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [expanded, id, active]);

  useWindowEvent("keydown", (event) => {
    const typing = event.target instanceof HTMLElement && (event.target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName));
    if (((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") || (event.key === "/" && !typing)) {
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
  });

  function go(hit: Hit | undefined) {
    if (!hit) return;
    setQuery("");
    input.current?.blur();
    void open(hit.page);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    const move = { ArrowDown: active + 1, ArrowUp: active - 1 }[event.key];
    if (move !== undefined && results.length) {
      event.preventDefault();
      setActive((move + results.length) % results.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      go(results[active]);
    } else if (event.key === "Escape") {
      setQuery("");
    }
  }

  return (
    <div className={classes.search} data-dark={dark || undefined}>
      <IconSearch size={14} className={classes.icon} aria-hidden />
      <input
        ref={input}
        className={classes.input}
        type="search"
        role="combobox"
        aria-label="搜索菜单"
        aria-expanded={expanded}
        aria-controls={`${id}-results`}
        aria-autocomplete="list"
        aria-activedescendant={expanded && results.length ? `${id}-${active}` : undefined}
        placeholder="搜索菜单 Ctrl K"
        autoComplete="off"
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          setActive(0);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={onKeyDown}
        data-testid="menu-search"
      />
      {expanded && (
        <ul id={`${id}-results`} className={classes.results} role="listbox" aria-label="菜单搜索结果">
          {results.length === 0 && <li className={classes.empty}>没有名称含“{query.trim()}”的页面</li>}
          {results.map((hit, index) => (
            <li
              key={hit.page.id}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === active}
              className={classes.option}
              // Chosen on mouse down, before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                go(hit);
              }}
              onMouseMove={() => setActive(index)}
            >
              <span className={classes.name}>{hit.page.menuName}</span>
              <span className={classes.trail}>{hit.trail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
