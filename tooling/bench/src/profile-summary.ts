// Summarises a V8 .cpuprofile (from BENCH_CPU_PROF): self time by function and by package.
// Run: pnpm --filter @vexil/bench profile-summary <file.cpuprofile>
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error("usage: profile-summary <file.cpuprofile>");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes("/packages/") || url.includes("/apps/")) return `vexil:${url.split("/").slice(-2).join("/")}`;
  return url.startsWith("node:") ? url : url ? "other" : "(native/gc/idle)";
};
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
const fns = new Map<string, number>();
const pkgs = new Map<string, number>();
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = (byId.get(id) as Node).callFrame;
  add(fns, `${functionName || "(anonymous)"} ${where(url)}:${lineNumber + 1}`, us);
  add(pkgs, where(url), us);
}
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
console.log(`total ${(total / 1e6).toFixed(1)} s sampled`);
console.log(`by package:\n${top(pkgs, 25).join("\n")}`);
console.log(`by function:\n${top(fns, 40).join("\n")}`);
