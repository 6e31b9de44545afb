// Sums a V8 .cpuprofile (node --cpu-prof) by function and by file: self time (where the samples landed) and total
// time (samples with the function anywhere on their stack, counted once per sample). The heaviest entries of each
// are what a render's cost is made of. `node scripts/bench/profile-summary.mjs <file.cpuprofile> [top]`.
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.mjs <file.cpuprofile> [top]");
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, "utf8"));

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const shortFile = (url) => (url ? url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "~/").replace(/^.*\/build\//, "build/") : "(native)");
const functionKey = ({ callFrame: f }) => `${f.functionName || "(anonymous)"} ${shortFile(f.url)}:${f.lineNumber + 1}`;
const fileKey = ({ callFrame: f }) => (f.url ? shortFile(f.url) : f.functionName);

// Samples per node, weighted by the time to the next sample.
const weight = new Map();
const deltas = profile.timeDeltas ?? [];
profile.samples.forEach((id, i) => weight.set(id, (weight.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0)));
const all = [...weight.values()].reduce((a, b) => a + b, 0);

function sum(keyOf) {
  const self = new Map();
  const total = new Map();
  for (const [id, w] of weight) {
    const seen = new Set();
    self.set(keyOf(nodes.get(id)), (self.get(keyOf(nodes.get(id))) ?? 0) + w);
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const key = keyOf(nodes.get(at));
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + w);
    }
  }
  return { self, total };
}

const pct = (w) => `${((w / all) * 100).toFixed(1).padStart(5)} %`;
function print(title, map) {
  console.log(`\n## ${title}`);
  for (const [key, w] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(w)}  ${key}`);
}

console.log(`${file}: ${(all / 1e6).toFixed(1)} s sampled`);
const byFunction = sum(functionKey);
const byFile = sum(fileKey);
print("self time by function", byFunction.self);
print("total time by function", byFunction.total);
print("self time by file", byFile.self);
print("total time by file", byFile.total);
