import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "test-results/", "playwright-report/", "bench/results/", "bench/bare-app/build/", "bench/bare-app/.react-router/", "data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly" } },
  },
  { files: ["scripts/**/*.mjs", "*.cjs"], languageOptions: { globals: globals.node } },
  // A test's un-awaited expectation or step passes whatever happens: the rule needs the types, so only tests pay for them.
  {
    files: ["tests/**/*.{ts,tsx}", "e2e/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { "@typescript-eslint/no-floating-promises": "error" },
  },
  // The three floors of ARCHITECTURE.md: each imports only from the floors below it.
  {
    files: ["resources/**"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**", "**/server/**", "~/*"] }] },
  },
  {
    files: ["server/**"],
    ignores: ["server/main.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**", "~/*"] }] },
  },
  // Icons draw from one sprite (app/components/icons.tsx): Tabler's components would write their paths into the page.
  // A code-split part is React's `lazy` through app/lib/lazy-part.tsx, which counts it for the browser tests' waits.
  {
    files: ["app/**"],
    ignores: ["app/lib/lazy-part.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@tabler/icons-react", message: "图标请从 ~/components/icons 引入（见 app/components/icons.tsx）" },
            { name: "react", importNames: ["lazy"], message: "按需加载的部件请用 ~/lib/lazy-part 的 lazyPart（见 decision 087）" },
          ],
        },
      ],
    },
  },
);
