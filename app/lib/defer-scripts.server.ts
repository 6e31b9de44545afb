import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

/** The id of the page's bootstrap script once it is parked until after the first paint. */
export const DEFERRED_BOOT_ID = "__rr-boot";

const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /<script\b([^>]*)\btype="module"([^>]*)>/;
const SCRIPT_END = "</script>";

/**
 * Starts the page's JavaScript after its first paint (decision 008). React Router writes a modulepreload link for
 * every chunk into the head and an inline module script that imports them; on a slow link those downloads share the
 * line with the stylesheets the first paint waits for. This rewrite drops the preload links and parks the module
 * script under a type the browser does not run; a small script after it, carrying the page's nonce, runs the parked
 * script after the first frame. Until then the server's HTML is the page: links, GET forms and posts work.
 */
export function deferModuleScripts(nonce: string): Transform {
  const decoder = new StringDecoder("utf8");
  const loader =
    `<script nonce="${nonce}">requestAnimationFrame(function(){setTimeout(function(){` +
    `var parked=document.getElementById("${DEFERRED_BOOT_ID}"),boot=document.createElement("script");` +
    `boot.type="module";boot.nonce=parked.nonce;boot.textContent=parked.textContent;document.head.appendChild(boot)})})</script>`;
  let pending = "";
  let boot = "";
  let state: "head" | "boot" | "done" = "head";

  function rewrite(text: string, final: boolean): string {
    let out = "";
    let rest = text;
    if (state === "head") {
      const match = MODULE_SCRIPT.exec(rest);
      if (match) {
        const before = rest.slice(0, match.index).replace(MODULE_PRELOAD, "");
        const attributes = `${match[1]}${match[2]}`.replace(/\s*\basync(="")?/, "");
        out += `${before}<script${attributes} type="text/x-deferred-module" id="${DEFERRED_BOOT_ID}">`;
        boot = "";
        rest = rest.slice(match.index + match[0].length);
        state = "boot";
      } else {
        // A tag may be cut at the chunk's end: keep an unclosed last tag for the next chunk.
        const open = rest.lastIndexOf("<");
        const keep = !final && open > rest.lastIndexOf(">") ? rest.slice(open) : "";
        pending = keep;
        return rest.slice(0, rest.length - keep.length).replace(MODULE_PRELOAD, "");
      }
    }
    if (state === "boot") {
      // The bootstrap is held until its end (a few KB) so its manifest can be written compactly.
      const end = rest.indexOf(SCRIPT_END);
      if (end >= 0) {
        out += `${compactManifest(boot + rest.slice(0, end))}${SCRIPT_END}${loader}`;
        rest = rest.slice(end + SCRIPT_END.length);
        state = "done";
      } else {
        // Keep enough to find a closing tag cut at the chunk's end.
        const keep = final ? 0 : Math.min(rest.length, SCRIPT_END.length - 1);
        pending = rest.slice(rest.length - keep);
        boot += rest.slice(0, rest.length - keep);
        return final ? out + boot : out;
      }
    }
    pending = "";
    return out + rest;
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = pending + decoder.write(chunk);
      callback(null, state === "done" ? text : rewrite(text, false));
    },
    flush(callback) {
      const text = pending + decoder.end();
      callback(null, state === "done" ? text : rewrite(text, true));
    },
  });
}

const MANIFEST = /(window\.__reactRouterManifest = )(\{[\s\S]*?\});\n/;
const ROUTE_MODULES = /window\.__reactRouterRouteModules = \{([^}]*)\}/;

interface ManifestRoute {
  imports?: string[];
  css?: string[];
  [key: string]: unknown;
}

/**
 * React Router writes the route manifest into the bootstrap as indented JSON: on a list page a third of its 6 KB is
 * spaces and line breaks. The page gets it compact and without what the browser never reads from it (issue 17):
 * - `false` flags (`hasAction`, `hasClientLoader`…): React Router tests them for truth, so a missing one is false;
 * - empty `css` / `imports` lists: read only behind a test for their presence;
 * - the `imports` of the routes this bootstrap itself imports (`__reactRouterRouteModules`): they only name the
 *   chunks to preload for those modules, and those are loaded by the import; the preload links they would give are
 *   the ones this rewrite drops anyway. Routes discovered later come from `/__manifest` with their lists.
 * Anything that does not parse is left as it was.
 */
export function compactManifest(script: string): string {
  let compact = compacted.get(script);
  if (compact === undefined) {
    if (compacted.size >= COMPACTED_KEPT) compacted.delete(compacted.keys().next().value as string);
    compacted.set(script, (compact = compactedAnew(script)));
  }
  return compact;
}

/**
 * A bootstrap depends only on the routes of the page (the same for every page of a screen), so each is compacted
 * once: parsing and writing its manifest again was 1 % of a list page's server time (issue 39). Bounded like the
 * partial manifests it holds (vite.config.ts).
 */
const compacted = new Map<string, string>();
const COMPACTED_KEPT = 500;

function compactedAnew(script: string): string {
  return script.replace(MANIFEST, (whole, lead: string, json: string) => {
    try {
      const loaded = new Set([...(ROUTE_MODULES.exec(script)?.[1] ?? "").matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string));
      const manifest = JSON.parse(json) as { routes?: Record<string, ManifestRoute> };
      for (const [id, route] of Object.entries(manifest.routes ?? {})) {
        for (const [key, value] of Object.entries(route)) {
          if (value === false || (Array.isArray(value) && value.length === 0 && (key === "css" || key === "imports"))) delete route[key];
        }
        if (loaded.has(id)) delete route.imports;
      }
      return `${lead}${JSON.stringify(manifest)};\n`;
    } catch {
      return whole;
    }
  });
}
