import { DEFAULT_THEME, mergeMantineTheme } from "@mantine/core";
import { describe, expect, test } from "vitest";
import { THEME_SWATCHES } from "../../app/components/shell/SettingsDrawer";
import { canteenCssVariables, canteenTheme, contrastRatio } from "../../app/lib/theme";

/** What Mantine's light variant lays behind its text: the shade at 12 % (its hover) over the shell's page grey. */
function tint(shade: string) {
  const rgb = (hex: string) => [0, 2, 4].map((i) => Number.parseInt(hex.slice(1 + i, 3 + i), 16));
  const page = rgb("#f0f2f5");
  return `#${rgb(shade).map((c, i) => Math.round(page[i] + (c - page[i]) * 0.12).toString(16).padStart(2, "0")).join("")}`;
}

const variablesFor = (colour: string) => canteenCssVariables(mergeMantineTheme(DEFAULT_THEME, canteenTheme(colour))).light;

describe("the theme's colours meet WCAG 2.1 AA (4.5:1 for text)", () => {
  // The settings drawer's colours (the first is the default) and a pale one a user might pick.
  for (const brand of [...THEME_SWATCHES, "#ffe58f"]) {
    test(`brand ${brand}: white text on every filled colour, every text colour on its tint over the page`, () => {
      const theme = mergeMantineTheme(DEFAULT_THEME, canteenTheme(brand));
      const variables = canteenCssVariables(theme).light;
      const names = Object.keys(DEFAULT_THEME.colors).filter((name) => name !== "dark").concat("brand");
      for (const name of names) {
        const fill = variables[`--mantine-color-${name}-filled`];
        const ink = variables[`--mantine-color-${name}-light-color`];
        expect(contrastRatio(fill, "#ffffff"), `${name} filled ${fill}`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(ink, tint(theme.colors[name][6])), `${name} text ${ink}`).toBeGreaterThanOrEqual(4.5);
      }
      for (const name of ["dimmed", "placeholder", "error", "anchor"]) {
        expect(contrastRatio(variables[`--mantine-color-${name}`], "#f0f2f5"), name).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  test("colours that already read stay as they are; the default blue only darkens a little", () => {
    const variables = variablesFor("#1890ff");
    expect(variables["--mantine-color-brand-filled"]).not.toBe("#1890ff");
    expect(contrastRatio(variables["--mantine-color-brand-filled"], "#1890ff")).toBeLessThan(1.6);
    expect(variablesFor("#002140")["--mantine-color-brand-filled"]).toBe("#002140");
  });
});
