// Tabler's per-icon modules export their shapes beside the component; the sprite (app/lib/icon-sprite.server.ts) reads them.
declare module "@tabler/icons-react/dist/esm/icons/*.mjs" {
  export const __iconNode: [string, Record<string, string>][];
}
