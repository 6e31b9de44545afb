import { DEFAULT_THEME, MantineProvider, mergeMantineTheme } from "@mantine/core";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { THEME_SWATCHES } from "../../app/components/shell/SettingsDrawer";
import { canteenCssVariables, canteenTheme, contrastRatio, themeColourOf, themeStylesheet, themeStylesheetOf } from "../../app/lib/theme";

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

describe("the theme's stylesheet (issue 17)", () => {
  for (const brand of [THEME_SWATCHES[0], "#ffe58f"]) {
    test(`brand ${brand}: the linked stylesheet holds exactly the variables MantineProvider would write into the page`, () => {
      const html = renderToString(
        createElement(MantineProvider, { theme: canteenTheme(brand), cssVariablesResolver: canteenCssVariables, forceColorScheme: "light" }, "x"),
      );
      const written = /<style data-mantine-styles="true">(.*?)<\/style>/s.exec(html)?.[1];
      expect(written).toBeTruthy();
      expect(themeStylesheet(brand)).toBe(written);
      expect(written).toContain(`--mantine-color-brand-6: ${brand}`);
    });
  }

  test("each colour has its own address, which changes when its content does; other files are not themes", () => {
    const blue = themeStylesheetOf("#1890ff");
    expect(blue.href).toMatch(/^\/theme\/1890ff\.css\?v=[0-9a-z]+$/);
    expect(themeStylesheetOf("#1890FF")).toEqual(blue);
    expect(themeStylesheetOf("#13c2c2").href).not.toBe(blue.href);
    expect(themeStylesheetOf("not a colour").href).toBe(blue.href);
    expect(themeColourOf("1890ff.css")).toBe("#1890ff");
    for (const file of ["1890FF.css", "1890ff", "../etc.css", "1890ff.css.map", "xyz.css"]) expect(themeColourOf(file)).toBeNull();
  });
});
