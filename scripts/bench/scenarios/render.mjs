// Issue 39's render criterion: the users list page (20 rows, signed in) against a bare React Router app with the same
// versions (bench/bare-app, built here from the same lock file: Mantine's AppShell and a 20-row Table, no session, no
// data), measured alternately in the same run (A B B A). The list page must render at least 60 % of the bare app's
// pages per second.
import { spawn, spawnSync } from "node:child_process";
import { BASE, PORT, loadRound, log } from "../lib.mjs";
import { LIST_PATH } from "./pages.mjs";

const BARE_APP_PORT = PORT + 5;
const TARGET = 0.6;

function startBareApp() {
  const child = spawn(process.execPath, ["scripts/bench/bare-app-server.mjs"], { env: { ...process.env, NODE_ENV: "production", PORT: String(BARE_APP_PORT) }, stdio: ["ignore", "pipe", "inherit"] });
  const ready = new Promise((resolve, reject) => {
    child.stdout.once("data", resolve);
    child.once("exit", (code) => reject(new Error(`the bare app exited (${code})`)));
  });
  return { ready, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")))) };
}

export default {
  name: "render",
  title: "list page SSR against a bare React Router app",
  setup() {
    log("building the bare React Router app (bench/bare-app)…");
    const built = spawnSync("npx", ["react-router", "build", "bench/bare-app"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
    if (built.status !== 0) throw new Error("the bare app's build failed");
  },
  async run({ cookie }) {
    // Started for each run and stopped after it, so it takes no CPU while the other scenarios run.
    const bare = startBareApp();
    try {
      await bare.ready;
      const [list, bareApp] = await loadRound([`${BASE}${LIST_PATH}`, cookie], [`http://127.0.0.1:${BARE_APP_PORT}/`, {}]);
      return { list, bareApp, ratio: list.rps / bareApp.rps };
    } finally {
      await bare.stop();
    }
  },
  rows: (s) => [
    ["list page SSR (users, 20 rows, signed in)", s.load("list")],
    ["bare React Router app (AppShell + 20-row Table)", s.load("bareApp")],
    ["list SSR / bare app", `${s.percent("ratio")}, ${s.median("ratio") >= TARGET ? "meets" : "below"} the 60 % target`],
  ],
};
