import { ActionIcon, Button, UnstyledButton } from "@mantine/core";
import { forwardRef, type ComponentPropsWithoutRef, type ReactNode, type Ref } from "react";
import { Link, type LinkProps } from "react-router";
import classes from "./PlainButton.module.css";

/**
 * Mantine's Button and ActionIcon drawn as plain elements with Mantine's own classes (issue 17, decision 031): the
 * components write ~300 bytes of inline custom properties and long class lists on every instance, and the shell and
 * the list page draw a dozen of them on every page. The variants' colours are one class each
 * (PlainButton.module.css); focus ring, active press and sizes are Mantine's CSS.
 */

type Variant = "filled" | "default" | "light" | "subtle";
interface Look {
  variant?: Variant;
  /** Button: sm (default), xs or compact-sm. */
  size?: "sm" | "xs" | "compact-sm";
  color?: "red" | "gray";
  className?: string;
}

type Element<P> = Look & P;
export type PlainButtonProps =
  | Element<{ to: LinkProps["to"] } & Omit<LinkProps, "to" | "color">>
  | Element<{ href: string } & Omit<ComponentPropsWithoutRef<"a">, "href" | "color">>
  | Element<{ to?: undefined; href?: undefined } & Omit<ComponentPropsWithoutRef<"button">, "color">>;

const FOCUS = "mantine-focus-auto mantine-active";

function lookClass(base: string, { variant = "filled", size, className }: Look) {
  return [FOCUS, base, UnstyledButton.classes.root, classes[variant], size && size !== "sm" ? classes[size] : "", className].filter(Boolean).join(" ");
}

/** The element itself: a router link, an anchor or a button, carrying the look's class and data attributes. */
function Element({ props, base, forwarded, children }: { props: Look & Record<string, unknown>; base: string; forwarded: Ref<HTMLElement>; children: ReactNode }) {
  const { variant = "filled", size, color, className, ...rest } = props;
  const attributes = { ...rest, className: lookClass(base, { variant, size, className }), "data-variant": variant, "data-color": color };
  if (rest.to !== undefined) return <Link {...(attributes as unknown as LinkProps)} ref={forwarded as Ref<HTMLAnchorElement>}>{children}</Link>;
  if (rest.href !== undefined) return <a {...(attributes as ComponentPropsWithoutRef<"a">)} ref={forwarded as Ref<HTMLAnchorElement>}>{children}</a>;
  return (
    <button type="button" {...(attributes as ComponentPropsWithoutRef<"button">)} ref={forwarded as Ref<HTMLButtonElement>}>
      {children}
    </button>
  );
}

/** A Mantine Button: a link (`to`, `href`) or a button. */
export const PlainButton = forwardRef<HTMLElement, PlainButtonProps & { leftSection?: ReactNode }>(function PlainButton({ leftSection, children, ...props }, ref) {
  const c = Button.classes;
  return (
    <Element props={props} base={c.root} forwarded={ref}>
      <span className={c.inner}>
        {leftSection && (
          <span className={c.section} data-position="left">
            {leftSection}
          </span>
        )}
        <span className={c.label}>{children}</span>
      </span>
    </Element>
  );
});

/** A Mantine ActionIcon (size lg, subtle unless said): give it an `aria-label`. */
export const PlainIconButton = forwardRef<HTMLElement, PlainButtonProps>(function PlainIconButton({ children, variant = "subtle", className, ...props }, ref) {
  const c = ActionIcon.classes;
  return (
    <Element props={{ ...props, variant, size: undefined, className: className ? `${classes.lg} ${className}` : classes.lg }} base={c.root} forwarded={ref}>
      <span className={c.icon}>{children}</span>
    </Element>
  );
});
