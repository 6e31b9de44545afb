import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * Libraries in a few long-lived chunks rather than one file per component: over HTTP/1.1 on a slow link,
 * sixty small requests cost far more round trips than six larger ones (see the Performance section).
 */
function vendorChunk(id: string): string | undefined {
  if (!id.includes("node_modules")) return undefined;
  if (/node_modules\/(mantine-react-table|@tanstack|@mantine\/dates|dayjs)\//.test(id)) return "table";
  if (/node_modules\/(zod|@conform-to)\//.test(id)) return "forms";
  if (/node_modules\/(@mantine\/(core|hooks|notifications)|@floating-ui|react-remove-scroll|react-textarea-autosize|clsx)/.test(id)) return "mantine";
  if (/node_modules\/@tabler\//.test(id)) return "icons";
  if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return "framework";
  return undefined;
}

// The SSR build's entry is the whole server (API + web app), so `npm start` runs one bundle.
export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/main.ts" }, target: "node20" }
    : { target: "es2022", rollupOptions: { output: { manualChunks: vendorChunk } } },
  plugins: [reactRouter(), tsconfigPaths()],
}));
