// The decisions index lists every decision, and names no file that is not there (docs/decisions/README.md says why).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = join(import.meta.dirname, "..", "docs", "decisions");
const index = readFileSync(join(dir, "README.md"), "utf8");
const files = readdirSync(dir).filter((f) => /^\d{3}-.+\.md$/.test(f));
const linked = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((m) => m[1]);
const missing = files.filter((f) => !linked.includes(f));
const dangling = [...new Set(linked.filter((f) => !existsSync(join(dir, f))))];
const numbers = files.map((f) => f.slice(0, 3));
const twice = numbers.filter((n, i) => numbers.indexOf(n) !== i);
const problems = [
  ...missing.map((f) => `docs/decisions/README.md does not list ${f}`),
  ...dangling.map((f) => `docs/decisions/README.md links ${f}, which does not exist`),
  ...twice.map((n) => `two decisions are numbered ${n}`),
];
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
