import type { Route } from "./+types/theme-css";
import { themeColourOf, themeStylesheetOf } from "~/lib/theme";

/**
 * `GET /theme/{hex}.css`: the CSS variables of a theme colour (issue 17), which pages link instead of carrying them.
 * Public and kept for a year: the page links it with a version of its content.
 */
export function loader({ params }: Route.LoaderArgs) {
  const colour = themeColourOf(params.file);
  if (!colour) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(themeStylesheetOf(colour).css, {
    headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" },
  });
}
