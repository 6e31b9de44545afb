import { iconSprite } from "~/lib/icon-sprite.server";

/**
 * `GET /icons.svg`: the sprite every icon draws from (app/components/icons.tsx). Public; pages link it with a
 * version of its icon set, and a week's caching covers a release that only changes Tabler's drawings.
 */
export function loader() {
  return new Response(iconSprite(), { headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=604800" } });
}
