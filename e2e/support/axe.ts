import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** WCAG 2.1 level A and AA, as axe-core tags them. */
export const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core over WCAG 2.1 A/AA for this page and its frames. Legacy mode runs `axe.run` in the page itself: the default
 * collects each frame's part and merges them in a new blank page per analysis, about twice the time (≈ 0.9 s against
 * 0.45 s a screen here, a third of the e2e run's time spent in the walk) for the same findings on our pages, whose
 * frames are of the same site — which is all legacy mode gives up. `a11y.spec.ts` plants a violation in a page and in
 * its frame and reads both back.
 */
export function axe(page: Page) {
  return new AxeBuilder({ page }).withTags(WCAG_21_AA).setLegacyMode();
}
