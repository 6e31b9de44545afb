import { defineConfig, devices } from "@playwright/test";
import { E2E_PORTS } from "./e2e/support/servers";

export default defineConfig({
  testDir: "./e2e",
  globalSetup: "./e2e/support/global-setup.ts",
  fullyParallel: false,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // scripts/test.sh reads the JSON report to know the run reached its end (E2E_REPORT).
  reporter: [["list"], ...(process.env.E2E_REPORT ? [["json", { outputFile: process.env.E2E_REPORT }] as const] : [])],
  outputDir: `test-results/e2e-artifacts-${E2E_PORTS.main}`,
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORTS.main}`,
    locale: "zh-CN",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } },
    {
      // The sign-in, list, form and logout journeys again, against `react-router-serve ./build/server/index.js`
      // (decision 020); only the tests tagged @journey, so CI pays for a handful.
      name: "react-router-serve",
      testMatch: /(auth|resources)\.spec\.ts$/,
      grep: /@journey/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, baseURL: `http://127.0.0.1:${E2E_PORTS.serve}` },
    },
  ],
});
