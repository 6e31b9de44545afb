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
 * What React Router works out anew for every render from our ~400 routes, though it depends only on the build, is
 * kept by the server build (issue 39's profiles). Each entry names a function of React Router's production chunks and
 * the exact text it rewrites; React Router is pinned exactly, and a version whose text differs fails the build here
 * rather than running unkept.
 * - `getPartialManifest` (13 % of a list page): route discovery's manifest, found by matching the page's path and
 *   each of its parents against every route. It depends only on the matched routes and the parent paths: kept per
 *   (parent path, matched route ids), at most PARTIAL_MANIFESTS_KEPT of them (paths with ids repeat little: the
 *   oldest go first).
 * - `createEntryRouteModules`, `createServerRoutes`, `createStaticRouter` (9 %): `<ServerRouter>` builds a route
 *   object per route, and the static router a data route per route, for each page. Their input is the build's route
 *   table (the same objects for the life of the process), so they are made once per table. Nothing on the server
 *   changes them: the static router refuses navigation, patching and lazy loading.
 * - `matchRoutesImpl` (2 %): a request's path is matched twice (the document handler, then the static handler) by
 *   trying the ranked branches of every route in turn until one matches. Which branch matches a path depends only on
 *   the branches, so its index is kept per path, at most BRANCHES_KEPT of them; the match itself is made afresh from
 *   that branch (its objects are the request's own).
 */
const PARTIAL_MANIFESTS_KEPT = 1000;
const BRANCHES_KEPT = 1000;
const KEPT_BY_REACT_ROUTER: Array<{ name: string; text: string; kept: string }> = [
  {
    name: "getPartialManifest",
    text: "function getPartialManifest({ sri, ...manifest }, router) {",
    kept: `var keptPartialManifests = new WeakMap();
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
  },
  {
    name: "createEntryRouteModules",
    text: "function createEntryRouteModules(manifest) {",
    kept: `var keptEntryRouteModules = new WeakMap();
function createEntryRouteModules(manifest) {
  var kept = keptEntryRouteModules.get(manifest);
  if (!kept) keptEntryRouteModules.set(manifest, (kept = findEntryRouteModules(manifest)));
  return kept;
}
function findEntryRouteModules(manifest) {`,
  },
  {
    name: "createServerRoutes",
    text: 'function createServerRoutes(manifest, routeModules, future, isSpaMode, parentId = "", routesByParentId = groupRoutesByParentId(manifest), spaModeLazyPromise = Promise.resolve({ Component: () => null })) {',
    kept: `var keptServerRoutes = new WeakMap();
function createServerRoutes(manifest, routeModules, future, isSpaMode, ...below) {
  if (below.length) return findServerRoutes(manifest, routeModules, future, isSpaMode, ...below);
  var byModules = keptServerRoutes.get(manifest);
  if (!byModules) keptServerRoutes.set(manifest, (byModules = new WeakMap()));
  var kept = byModules.get(routeModules);
  if (!kept) byModules.set(routeModules, (kept = {}));
  return (kept[isSpaMode] ??= findServerRoutes(manifest, routeModules, future, isSpaMode));
}
function findServerRoutes(manifest, routeModules, future, isSpaMode, parentId = "", routesByParentId = groupRoutesByParentId(manifest), spaModeLazyPromise = Promise.resolve({ Component: () => null })) {`,
  },
  {
    name: "createStaticRouter",
    text: `function createStaticRouter(routes, context, opts = {}) {
  let manifest = {};
  let dataRoutes = convertRoutesToDataRoutes(
    routes,
    mapRouteProperties,
    void 0,
    manifest
  );`,
    kept: `var keptDataRoutes = new WeakMap();
function createStaticRouter(routes, context, opts = {}) {
  let kept = keptDataRoutes.get(routes);
  if (!kept) {
    let manifest2 = {};
    kept = { manifest: manifest2, dataRoutes: convertRoutesToDataRoutes(routes, mapRouteProperties, void 0, manifest2) };
    keptDataRoutes.set(routes, kept);
  }
  let { manifest, dataRoutes } = kept;`,
  },
  {
    name: "matchRoutesImpl",
    text: `  let branches = precomputedBranches ?? flattenAndRankRoutes(routes);
  let matches = null;
  let decoded = decodePath(pathname);
  for (let i = 0; matches == null && i < branches.length; ++i) {
    matches = matchRouteBranch(
      branches[i],
      decoded,
      allowPartial
    );
  }
  return matches;`,
    kept: `  let branches = precomputedBranches ?? flattenAndRankRoutes(routes);
  let matches = null;
  let decoded = decodePath(pathname);
  let keptByBranches = (matchRoutesImpl.keptBranchIndexes ??= new WeakMap());
  let kept = precomputedBranches && keptByBranches.get(branches);
  if (precomputedBranches && !kept) keptByBranches.set(branches, (kept = new Map()));
  let key = (allowPartial ? "+" : "=") + decoded;
  let at = kept ? kept.get(key) : void 0;
  if (at !== void 0) return at < 0 ? null : matchRouteBranch(branches[at], decoded, allowPartial);
  let i = 0;
  for (; matches == null && i < branches.length; ++i) {
    matches = matchRouteBranch(
      branches[i],
      decoded,
      allowPartial
    );
  }
  if (kept) {
    if (kept.size >= ${BRANCHES_KEPT}) kept.delete(kept.keys().next().value);
    kept.set(key, matches == null ? -1 : i - 1);
  }
  return matches;`,
  },
];
function reactRouterWorkKept(): Plugin {
  return {
    name: "canteen:react-router-work-kept",
    apply: "build",
    transform(code, id) {
      if (this.environment.name !== "ssr" || !/node_modules\/react-router\/dist\/production\/chunk-[^/]+\.mjs$/.test(id)) return null;
      let out = code;
      for (const { name, text, kept } of KEPT_BY_REACT_ROUTER) {
        if (!out.includes(`function ${name}(`)) continue;
        if (!out.includes(text)) throw new Error(`react-router's ${name} changed (${id}): review reactRouterWorkKept in vite.config.ts`);
        out = out.replace(text, kept);
      }
      return out === code ? null : out;
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
  plugins: [reactRouter(), tsconfigPaths(), reactRouterWorkKept()],
}));
