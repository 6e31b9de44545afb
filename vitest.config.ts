import { availableParallelism } from "node:os";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/**/*.test.{ts,tsx}"],
    setupFiles: ["tests/helpers/setup.ts"],
    // Each suite's database copies a template migrated (and seeded) once a run instead of migrating its own.
    globalSetup: ["tests/helpers/templates.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one fewer than the cores: one file at a time on CI's two. The suites wait on the database
    // (PostgreSQL's own process, fsyncs) as much as they compute, so the cores take one each.
    maxWorkers: Math.max(2, availableParallelism()),
    allowOnly: false,
  },
});
