import { reactRouter } from "@react-router/dev/vite";
import { createHash } from "node:crypto";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * Mantine components that the shell or the sign-in page show, so nearly every page loads them: they share one
 * long-lived chunk (with their own dependencies, which Rollup pulls in). Components only some screens use
 * (tables, pickers, drawers, the colour picker…) load with those screens' code instead. A component missing here
 * still works; it only lands in a chunk of its own.
 */
const BASE_MANTINE_COMPONENTS = [
  "Accordion", "ActionIcon", "Alert", "Anchor", "AppShell", "Avatar", "Badge", "Breadcrumbs", "Button", "Center",
  "CloseButton", "Collapse", "Floating", "FocusTrap", "Group", "Image", "Indicator", "Input", "InputBase", "Loader",
  "Menu", "NavLink", "Notification", "Overlay", "Paper", "Popover", "Portal", "Stack",
  "Text", "TextInput", "Title", "Tooltip", "Transition", "UnstyledButton", "VisuallyHidden",
];
const baseMantine = new RegExp(`node_modules/@mantine/(core/esm/(core|utils)/|core/esm/components/(${BASE_MANTINE_COMPONENTS.join("|")})/|store/)`);

/**
 * Libraries in a few long-lived chunks rather than one file per module: over HTTP/1.1 on a slow link, sixty
 * small requests cost far more round trips than a dozen larger ones (see the Performance section).
 */
function vendorChunk(id: string): string | undefined {
  if (!id.includes("node_modules")) return undefined;
  if (/node_modules\/(zod|@conform-to)\//.test(id)) return "forms";
  if (/node_modules\/@tabler\//.test(id)) return "icons";
  if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return "framework";
  if (baseMantine.test(id)) return "mantine";
  return undefined;
}

/**
 * React Router's package exports send Node to its development build, with dev-only checks on every render
 * (upstream remix-run/react-router#14102). The server bundle takes the production build instead: React Router and
 * its Node adapter are bundled (one copy of its contexts) with the bare import pointed at the production file.
 */
const reactRouterProduction = fileURLToPath(new URL("./node_modules/react-router/dist/production/index.mjs", import.meta.url));

/**
 * CSS module classes as six characters in a build (`c` and a hash of the file and the class), instead of Vite's
 * `_name_hash_line`: a list page carries nearly two hundred of them (issue 17). Both builds hash the same input, so
 * the server's markup and the client's stylesheet agree; development keeps the readable names.
 */
function shortClassName(name: string, filename: string) {
  const file = relative(fileURLToPath(new URL(".", import.meta.url)), filename.split("?")[0]);
  return `c${createHash("sha256").update(`${file}:${name}`).digest("base64url").replace(/[-_]/g, "").slice(0, 5)}`;
}

/**
 * React Router's `<Scripts>` puts the routes a page may need into every page (route discovery, "lazy" mode) and finds
 * them anew for each render: the page's path and each of its parents matched against every one of our ~400 routes,
 * 13 % of a list page's server time (issue 39's profile). The answer depends only on the matched routes and the
 * parent paths, so the server build keeps it, for at most PARTIAL_MANIFESTS_KEPT of them (paths with ids in them
 * repeat little: the oldest go first). React Router is pinned exactly; a version without this function fails the
 * build here rather than running unmemoized.
 */
const PARTIAL_MANIFESTS_KEPT = 1000;
const PARTIAL_MANIFEST = "function getPartialManifest({ sri, ...manifest }, router) {";
function partialManifestKept(): Plugin {
  return {
    name: "canteen:partial-manifest-kept",
    apply: "build",
    transform(code, id) {
      if (this.environment.name !== "ssr" || !/node_modules\/react-router\/dist\/production\/chunk-[^/]+\.mjs$/.test(id) || !code.includes("function getPartialManifest(")) return null;
      if (!code.includes(PARTIAL_MANIFEST)) throw new Error(`react-router's getPartialManifest changed (${id}): review partialManifestKept in vite.config.ts`);
      return code.replace(
        PARTIAL_MANIFEST,
        `var keptPartialManifests = new WeakMap();
function getPartialManifest(manifest, router) {
  var kept = keptPartialManifests.get(manifest);
  if (!kept) keptPartialManifests.set(manifest, (kept = new Map()));
  var key = router.state.location.pathname.split("/").filter(Boolean).slice(0, -1).join("/") + "\\0" + router.state.matches.map((m) => m.route.id).join("\\0");
  var partial = kept.get(key);
  if (!partial) {
    if (kept.size >= ${PARTIAL_MANIFESTS_KEPT}) kept.delete(kept.keys().next().value);
    kept.set(key, (partial = findPartialManifest(manifest, router)));
  }
  return partial;
}
function findPartialManifest({ sri, ...manifest }, router) {`,
      );
    },
  };
}

// The SSR build's entry is the whole server (API + web app), so `npm start` runs one bundle.
export default defineConfig(({ isSsrBuild, command }) => ({
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/main.ts" }, target: "node20" }
    : { target: "es2022", rollupOptions: { output: { manualChunks: vendorChunk } } },
  ...(isSsrBuild && command === "build"
    ? { ssr: { noExternal: ["react-router", "@react-router/node"] }, resolve: { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } }
    : {}),
  ...(command === "build" ? { css: { modules: { generateScopedName: shortClassName } } } : {}),
  plugins: [reactRouter(), tsconfigPaths(), partialManifestKept()],
}));
