import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import classes from "./cells.module.css";

export interface RowAction {
  key: string;
  label: string;
  to: string;
  /** Shown red: the row's delete. */
  danger?: boolean;
}

/**
 * A row's links (workflow links, edit, delete), styled as compact subtle buttons, text only like the workflow
 * links beside them (two icons a row were a fifth of the table's markup); delete is red. They are plain anchors, which
 * work before JavaScript loads; a list renders a hundred of them, and a router `Link` each costs far more on the
 * server. Clicks are routed client-side by `useAppLinkNavigation` on the table.
 */
export function RowActions({ actions }: { actions: RowAction[] }) {
  return (
    <div className={classes.actions}>
      {actions.map((action) => (
        <a key={action.key} href={action.to} data-tone={action.danger ? "red" : undefined}>
          {action.label}
        </a>
      ))}
    </div>
  );
}

/**
 * One click handler for the plain anchors of a list (row links, sort headers, paging): a plain left click on a link
 * inside a `[data-app-links]` container navigates in the app, as a router `Link` would. A list renders dozens of
 * links, and each router `Link` costs hooks and context on the server; the anchors work before JavaScript loads. The
 * container is marked once, not each link: a hundred and forty attributes less in a list's HTML (issue 17).
 */
export function useAppLinkNavigation() {
  const navigate = useNavigate();
  return (event: React.MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("[data-app-links] a[href]");
    // A download, another window or another site is the browser's to open.
    if (!link || link.target || link.hasAttribute("download") || link.origin !== window.location.origin) return;
    event.preventDefault();
    const url = new URL(link.href);
    // `data-keep-scroll`: a link that changes what the page shows in place (a fold), not where the user is.
    navigate(url.pathname + url.search, { preventScrollReset: link.hasAttribute("data-keep-scroll") });
  };
}

/** A native checkbox for row selection: one element per row instead of a Mantine Checkbox's five. */
export function SelectCheckbox({
  checked,
  indeterminate = false,
  label,
  onChange,
}: {
  checked: boolean;
  indeterminate?: boolean;
  label: string;
  onChange: (event: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  // Styled by the table (`.table input`): a hundred rows carry no class for it.
  return <input ref={ref} type="checkbox" checked={checked} aria-label={label} onChange={onChange} />;
}
