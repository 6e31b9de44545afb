import { Menu, Tooltip, type MenuProps, type TooltipProps } from "@mantine/core";
import { cloneElement, useState, useSyncExternalStore, type MouseEvent, type ReactElement } from "react";

const noSubscription = () => () => {};

/** False on the server and in hydration's render, true once scripts run the page. */
export const useHydrated = () => useSyncExternalStore(noSubscription, () => true, () => false);

/**
 * A Tooltip once the page is live; before, its target alone. Mantine's floating parts (Tooltip, Menu) run their
 * positioning hooks on every render though nothing of them shows until a pointer comes, which no page drawn by the
 * server has: in the shell's ten of them that was 5–7 % of a list page's server time (issue 39). The target's DOM is
 * the same either way, so hydration matches, and the tooltip wraps it in the render after.
 */
export function LiveTooltip(props: TooltipProps) {
  return useHydrated() ? <Tooltip {...props} /> : props.children;
}

/**
 * A Menu once the page is live, as LiveTooltip; before, its target alone, and its dropdown is not built at all. A
 * click on the target while the page hydrates (React replays it once the target is hydrated, which is a render
 * before the menu is there) opens the menu when it comes.
 */
export function LiveMenu({ target, children, ...props }: MenuProps & { target: ReactElement<{ onClick?: (event: MouseEvent) => void }> }) {
  const live = useHydrated();
  const [asked, setAsked] = useState(false);
  if (!live) {
    return cloneElement(target, {
      onClick(event: MouseEvent) {
        target.props.onClick?.(event);
        setAsked(true);
        props.onChange?.(true);
      },
    });
  }
  return (
    <Menu {...props} defaultOpened={asked || props.defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      {children}
    </Menu>
  );
}
