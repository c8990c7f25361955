// Summarises a V8 .cpuprofile (from BENCH_CPU_PROF): self time by function and by package.
// Run: pnpm --filter @vexil/bench profile-summary <file.cpuprofile> [--timeline] [--from <s>] [--to <s>] [--inclusive]
// --timeline prints the busy share of each second (the server is idle while a baseline takes its
// turn), so that --from and --to (seconds from the profile's start) can cut one row's rounds out;
// --inclusive adds each function's time with what it called (once per sample, however deep it recurs).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

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

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { timeline: { type: "boolean" }, inclusive: { type: "boolean" }, from: { type: "string" }, to: { type: "string" } },
});
const file = positionals[0];
if (!file) throw new Error("usage: profile-summary <file.cpuprofile> [--timeline] [--from <s>] [--to <s>] [--inclusive]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const fromUs = Number(values.from ?? 0) * 1e6;
const toUs = values.to === undefined ? Number.POSITIVE_INFINITY : Number(values.to) * 1e6;
const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));

const selfUs = new Map<number, number>();
const seconds: { busy: number; all: number }[] = [];
let at = 0;
for (const [i, id] of profile.samples.entries()) {
  const us = profile.timeDeltas[i] ?? 0;
  at += us;
  const second = (seconds[Math.floor(at / 1e6)] ??= { busy: 0, all: 0 });
  second.all += us;
  if (!idleIds.has(id)) second.busy += us;
  if (at >= fromUs && at < toUs) selfUs.set(id, (selfUs.get(id) ?? 0) + us);
}
if (values.timeline) {
  for (const [s, { busy, all }] of seconds.entries())
    console.log(`${String(s).padStart(5)} s  busy ${((100 * busy) / (all || 1)).toFixed(0).padStart(3)}%`);
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const busyTotal = [...selfUs].filter(([id]) => !idleIds.has(id)).reduce((a, [, us]) => a + us, 0);

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
  if (idleIds.has(id)) continue;
  const { functionName, url, lineNumber } = (byId.get(id) as Node).callFrame;
  add(fns, `${functionName || "(anonymous)"} ${where(url)}:${lineNumber + 1}`, us);
  add(pkgs, where(url), us);
}
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${((100 * us) / busyTotal).toFixed(1).padStart(5)}%  ${k}`);
// Shares are of the busy time: the idle samples of a window say how long the baselines' turns took.
console.log(`total ${(total / 1e6).toFixed(1)} s sampled, ${(busyTotal / 1e6).toFixed(1)} s of it busy (the shares below)`);
console.log(`by package:\n${top(pkgs, 25).join("\n")}`);
console.log(`by function:\n${top(fns, 40).join("\n")}`);
if (values.inclusive) {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    if (idleIds.has(id)) continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { functionName, url, lineNumber } = (byId.get(at) as Node).callFrame;
      seen.add(`${functionName || "(anonymous)"} ${where(url)}:${lineNumber + 1}`);
    }
    for (const name of seen) add(inclusive, name, us);
  }
  console.log(`by function, with what it called:\n${top(inclusive, 60).join("\n")}`);
}
