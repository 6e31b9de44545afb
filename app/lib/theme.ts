import {
  DEFAULT_THEME,
  convertCssVariables,
  createTheme,
  deepMerge,
  defaultCssVariablesResolver,
  mergeMantineTheme,
  type ConvertCSSVariablesInput,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from "@mantine/core";

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: number[]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** `hex` moved `weight` of the way towards `target` (another colour, or a grey level 0–255). */
function mix(hex: string, target: string | number, weight: number): string {
  const to = typeof target === "number" ? [target, target, target] : channels(target);
  return toHex(channels(hex).map((c, i) => c + (to[i] - c) * weight));
}

/** Ten shades around the chosen colour, which sits at index 6 (Mantine's primary shade). */
export function paletteFrom(hex: string): MantineColorsTuple {
  const base = /^#[0-9a-f]{6}$/i.test(hex) ? hex.toLowerCase() : "#1890ff";
  return [
    mix(base, 255, 0.92),
    mix(base, 255, 0.8),
    mix(base, 255, 0.62),
    mix(base, 255, 0.45),
    mix(base, 255, 0.28),
    mix(base, 255, 0.12),
    base,
    mix(base, 0, 0.15),
    mix(base, 0, 0.3),
    mix(base, 0, 0.45),
  ];
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG 2.1 AA (1.4.3): normal-size text needs 4.5:1 against what is behind it. */
const AA_TEXT = 4.5;

/** `hex` darkened just enough to read at 4.5:1 on `background`: the hue stays, so the look does. */
export function readableOn(hex: string, background: string): string {
  for (let step = 0; step <= 100; step++) {
    const candidate = mix(hex, 0, step / 100);
    if (contrastRatio(candidate, background) >= AA_TEXT) return candidate;
  }
  return "#000000";
}

/** The darkest plain surface text sits on: the shell's page background (a striped row, #f2f2f2, is lighter). */
const PAGE_BACKGROUND = "#f0f2f5";

const colourVariables = new Map<string, Record<string, string>>();

/**
 * Mantine writes white text on a palette's shade 6 (`filled`) and that shade as text on its 10 % tint (`light`
 * badges, subtle buttons, links, error messages). For most palettes, and for the default brand blue #1890ff, that
 * is under 4.5:1. Each palette keeps its tints and shade 6; only the text colours and the fills under white text are
 * darkened, each just enough.
 */
function colourSchemeVariables(colours: Record<string, MantineColorsTuple>): Record<string, string> {
  const key = JSON.stringify(colours.brand);
  const cached = colourVariables.get(key);
  if (cached) return cached;
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colours)) {
    if (name === "dark") continue;
    const shade = shades[6];
    const fill = readableOn(shade, "#ffffff");
    const ink = readableOn(shade, mix(PAGE_BACKGROUND, shade, 0.12));
    Object.assign(variables, {
      [`--mantine-color-${name}-filled`]: fill,
      [`--mantine-color-${name}-filled-hover`]: mix(fill, 0, 0.12),
      [`--mantine-color-${name}-text`]: ink,
      [`--mantine-color-${name}-light-color`]: ink,
      [`--mantine-color-${name}-outline`]: ink,
    });
  }
  const grey = readableOn(colours.gray[6], PAGE_BACKGROUND);
  Object.assign(variables, {
    "--mantine-color-anchor": variables["--mantine-color-brand-text"],
    "--mantine-color-error": variables["--mantine-color-red-text"],
    // Dimmed help text and placeholders: Mantine's grey 6 (#868e96, 3.3:1) and 5 (#adb5bd, 2.1:1), darkened.
    "--mantine-color-dimmed": grey,
    "--mantine-color-placeholder": grey,
  });
  colourVariables.set(key, variables);
  return variables;
}

export const canteenCssVariables: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: colourSchemeVariables(theme.colors),
  dark: {},
});

const FONT_FAMILY = '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Helvetica Neue", Arial, sans-serif';

export function canteenTheme(themeColor: string) {
  return createTheme({
    primaryColor: "brand",
    colors: { brand: paletteFrom(themeColor) },
    defaultRadius: "sm",
    // Mantine's dialogs draw their close button as a bare icon: without a name a screen reader says only "button".
    components: {
      Modal: { defaultProps: { closeButtonProps: { "aria-label": "关闭" } } },
      Drawer: { defaultProps: { closeButtonProps: { "aria-label": "关闭" } } },
      // A notification (the complaint alert) likewise; its text under a title is Mantine's gray-6, 3.3:1 on white.
      Notification: {
        defaultProps: { closeButtonProps: { "aria-label": "关闭" } },
        styles: { description: { color: "var(--mantine-color-dimmed)" } },
      },
      // The placeholder that takes a menu's first focus is a div inside role=menu, which allows only menu items.
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    },
    fontFamily: FONT_FAMILY,
    // Named here too: given only `fontFamily`, mergeMantineTheme writes it into the shared DEFAULT_THEME.headings.
    headings: { fontFamily: FONT_FAMILY },
  });
}

/** The theme colour as the URL of its stylesheet says it (`1890ff`), or null for anything else. */
export function themeColourOf(file: string): string | null {
  const match = /^([0-9a-f]{6})\.css$/.exec(file);
  return match ? `#${match[1]}` : null;
}

const stylesheets = new Map<string, { css: string; href: string }>();

/**
 * A theme colour's CSS variables and where they are served (`GET /theme/{hex}.css?v={hash}`): the same for everyone
 * who chose the colour, and a new address when a release changes them, so the browser may keep each for good.
 */
export function themeStylesheetOf(themeColor: string): { css: string; href: string } {
  const hex = /^#[0-9a-f]{6}$/i.test(themeColor) ? themeColor.slice(1).toLowerCase() : "1890ff";
  let sheet = stylesheets.get(hex);
  if (!sheet) {
    const css = themeStylesheet(`#${hex}`);
    // FNV-1a: a short, stable version of the content (not a secret).
    let hash = 0x811c9dc5;
    for (let i = 0; i < css.length; i++) hash = Math.imul(hash ^ css.charCodeAt(i), 0x01000193) >>> 0;
    sheet = { css, href: `/theme/${hex}.css?v=${hash.toString(36)}` };
    stylesheets.set(hex, sheet);
  }
  return sheet;
}

/**
 * The CSS variables MantineProvider would write into every page for this theme colour (its `<style>` of 6.5 KB): the
 * page links them as a stylesheet instead (issue 17), which the browser keeps. Built as Mantine builds them —
 * Mantine's resolver and ours merged, Mantine's defaults left out (they are in its stylesheet) — and a test checks
 * that they equal what MantineProvider renders.
 */
export function themeStylesheet(themeColor: string): string {
  const theme = mergeMantineTheme(DEFAULT_THEME, canteenTheme(themeColor));
  const merged = deepMerge(defaultCssVariablesResolver(theme), canteenCssVariables(theme)) as ConvertCSSVariablesInput;
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  const changed = (section: keyof ConvertCSSVariablesInput) =>
    Object.fromEntries(Object.entries(merged[section]).filter(([key, value]) => defaults[section][key as keyof (typeof defaults)[typeof section]] !== value));
  return convertCssVariables({ variables: changed("variables"), light: changed("light"), dark: changed("dark") }, ":root");
}
