import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, test } from "vitest";
import { DEFERRED_BOOT_ID, deferModuleScripts } from "../../app/lib/defer-scripts.server";

const NONCE = "n0nce+/=";
const MANIFEST = { entry: { module: "/assets/entry.client-A.js", imports: ["/assets/framework-D.js"] }, routes: { root: { id: "root", path: "" } }, version: "e0d4" };
const BOOT_WITH = (manifest: string) =>
  `import "/assets/entry.client-A.js";\nimport * as route0 from "/assets/root-B.js";\n  window.__reactRouterManifest = ${manifest};\n  window.__reactRouterRouteModules = {"root": route0};\n\nimport("/assets/entry.client-A.js");`;
// React Router writes the manifest indented; the page carries it compact.
const BOOT_SENT = BOOT_WITH(JSON.stringify(MANIFEST, null, 2));
const BOOT = BOOT_WITH(JSON.stringify(MANIFEST));
// The shape React Router and React write: preloads hoisted into the head, the bootstrap after the body's content.
const PAGE =
  `<!DOCTYPE html><html lang="zh-CN"><head><meta charSet="utf-8"/>` +
  `<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="${NONCE}"/>` +
  `<link rel="modulepreload" href="/assets/root-B.js" nonce="${NONCE}"/>` +
  `<link nonce="${NONCE}" rel="stylesheet" href="/assets/root-C.css"/></head>` +
  `<body><main><h3>用户管理</h3><table><tr><td>职工004422</td></tr></table></main>` +
  `<script nonce="${NONCE}">window.__reactRouterContext = {"basename":"/"};</script>` +
  `<script nonce="${NONCE}" type="module" async="">${BOOT_SENT}</script>` +
  `<script nonce="${NONCE}">window.__reactRouterContext.streamController.close();</script></body></html>`;

async function run(chunks: Buffer[]): Promise<string> {
  return text(Readable.from(chunks).pipe(deferModuleScripts(NONCE)));
}

describe("deferModuleScripts", () => {
  test("drops the preload links and parks the bootstrap, to be run after the first paint under the page's nonce", async () => {
    const html = await run([Buffer.from(PAGE)]);
    expect(html).not.toContain("modulepreload");
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain(`<script nonce="${NONCE}" type="text/x-deferred-module" id="${DEFERRED_BOOT_ID}">${BOOT}</script>`);
    // The runner comes right after the parked script, so the parser has all of its text when it runs.
    const runner = html.slice(html.indexOf(`${BOOT}</script>`) + `${BOOT}</script>`.length);
    expect(runner).toMatch(new RegExp(`^<script nonce="${NONCE.replace(/[+/]/g, "\\$&")}">requestAnimationFrame\\(`));
    expect(runner).toContain(`getElementById("${DEFERRED_BOOT_ID}")`);
    expect(runner).toContain('boot.type="module"');
    // Everything else is as the server wrote it.
    expect(html).toContain(`<link nonce="${NONCE}" rel="stylesheet" href="/assets/root-C.css"/>`);
    expect(html).toContain("<h3>用户管理</h3><table><tr><td>职工004422</td></tr></table>");
    expect(html).toContain("streamController.close();</script></body></html>");
  });

  test("the result does not depend on where the network cuts the stream, even inside a character", async () => {
    const whole = await run([Buffer.from(PAGE)]);
    const bytes = Buffer.from(PAGE);
    for (let size = 1; size <= 64; size++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(await run(chunks), `chunks of ${size} bytes`).toBe(whole);
    }
  });

  test("the manifest is the same object, written without indentation", async () => {
    const html = await run([Buffer.from(PAGE)]);
    expect(BOOT_SENT.length - BOOT.length).toBeGreaterThan(50);
    const written = /window\.__reactRouterManifest = (.*);\n/.exec(html)?.[1] ?? "";
    expect(JSON.parse(written)).toEqual(MANIFEST);
    expect(written).not.toMatch(/\n| {2}/);
  });

  test("the manifest leaves out what the browser never reads: false flags, empty lists, the loaded routes' imports", async () => {
    const full = {
      entry: { module: "/assets/entry.client-A.js", imports: ["/assets/framework-D.js"], css: [] },
      routes: {
        root: { id: "root", path: "", hasAction: false, hasLoader: true, hasClientLoader: false, hasErrorBoundary: true, module: "/assets/root-B.js", imports: ["/assets/framework-D.js", "/assets/mantine-E.js"], css: ["/assets/root-C.css"] },
        "auth/user:list": { id: "auth/user:list", parentId: "root", path: "/admin/auth/user/index", hasAction: true, hasLoader: true, hasClientAction: false, module: "/assets/list-F.js", imports: ["/assets/table-G.js"], css: ["/assets/list-H.css"] },
        "routes/home": { id: "routes/home", parentId: "root", index: true, hasLoader: true, hasErrorBoundary: false, module: "/assets/home-I.js", imports: [], css: [] },
        "auth/user:edit": { id: "auth/user:edit", parentId: "root", path: "/admin/auth/user/edit/:id", hasLoader: true, module: "/assets/form-J.js", imports: ["/assets/forms-K.js"], css: ["/assets/form-L.css"] },
      },
      url: "/assets/manifest-e0d4.js",
      version: "e0d4",
    };
    const boot =
      `import * as route0 from "/assets/root-B.js";\nimport * as route1 from "/assets/list-F.js";\n` +
      `  window.__reactRouterManifest = ${JSON.stringify(full, null, 2)};\n` +
      `  window.__reactRouterRouteModules = {"root":route0,"auth/user:list":route1};\n\nimport("/assets/entry.client-A.js");`;
    const page = PAGE.replace(BOOT_SENT, boot);
    const written = JSON.parse(/window\.__reactRouterManifest = (.*);\n/.exec(await run([Buffer.from(page)]))?.[1] ?? "null");
    expect(written).toEqual({
      // The entry keeps its lists: React Router concatenates `entry.imports` without a test.
      entry: full.entry,
      routes: {
        // The bootstrap imports these two: their chunks come with the import, only their stylesheets stay listed.
        root: { id: "root", path: "", hasLoader: true, hasErrorBoundary: true, module: "/assets/root-B.js", css: ["/assets/root-C.css"] },
        "auth/user:list": { id: "auth/user:list", parentId: "root", path: "/admin/auth/user/index", hasAction: true, hasLoader: true, module: "/assets/list-F.js", css: ["/assets/list-H.css"] },
        "routes/home": { id: "routes/home", parentId: "root", index: true, hasLoader: true, module: "/assets/home-I.js" },
        // A route the page has not loaded keeps what a later navigation preloads.
        "auth/user:edit": full.routes["auth/user:edit"],
      },
      url: "/assets/manifest-e0d4.js",
      version: "e0d4",
    });
  });

  test("a page without a bootstrap script loses only its preload links", async () => {
    const page = `<html><head><link rel="modulepreload" href="/assets/x.js"/><title>错误</title></head><body><p>a &lt; b</p></body></html>`;
    expect(await run([Buffer.from(page)])).toBe("<html><head><title>错误</title></head><body><p>a &lt; b</p></body></html>");
  });
});
