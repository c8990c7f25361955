// The mixed scenario (BENCH_ONLY=mixed): what a real installation sees at once. People search the
// console, admins toggle, patch and tag flags through two instances on one database, SDKs poll the
// client API and post metrics that each instance flushes every 10 s. Then the admins' writes alone,
// as fast as eight people make them while an SDK reports every second: through one instance, two,
// and Unleash 8.2 (BENCH_PEER=1).
import type pg from "pg";
import { type LoadSpec, type LoadStats, runLoad } from "./load.ts";
import type { Target } from "./processes.ts";
import { check } from "./report.ts";

const WRITE_FLAGS = 200;
const writeFlag = (i: number) => `write-flag-${String(i).padStart(3, "0")}`;
const FEATURES = "/api/admin/projects/default/features";

/** The flags the admins write, in `default` (Unleash's one project), made through the admin API Vexil and Unleash share. */
async function addWriteFlags(base: string, admin: Record<string, string>): Promise<void> {
  for (let i = 1; i <= WRITE_FLAGS; i++) {
    const res = await fetch(base + FEATURES, {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ name: writeFlag(i) }),
    });
    await res.arrayBuffer();
    if (res.status >= 300 && res.status !== 409) throw new Error(`POST ${FEATURES} at ${base}: ${res.status}`);
  }
}

/** A toggle, a patch of the description and a change of tags, of random flags, in turn. */
function writeSpec(admin: Record<string, string>, connections: number, arrivals?: number): LoadSpec {
  let n = 0;
  const random = (count: number) => 1 + Math.floor(Math.random() * count);
  const tag = () => ({ type: "simple", value: `bench-${random(10)}` });
  return {
    method: "POST",
    path: () => FEATURES,
    headers: { ...admin, "content-type": "application/json" },
    connections,
    ...(arrivals ? { arrivals } : {}),
    next: () => {
      const flag = writeFlag(random(WRITE_FLAGS));
      switch (n++ % 3) {
        case 0:
          return { method: "POST", path: `${FEATURES}/${flag}/environments/development/${random(2) === 1 ? "on" : "off"}` };
        case 1:
          return {
            method: "PATCH",
            path: `${FEATURES}/${flag}`,
            body: JSON.stringify([{ op: "replace", path: "/description", value: `bench ${n}` }]),
          };
        default:
          return {
            method: "PUT",
            path: `/api/admin/features/${flag}/tags`,
            body: JSON.stringify({ addedTags: [tag()], removedTags: [tag()] }),
          };
      }
    },
  };
}

/** An SDK's metrics report of every written flag, `arrivals` a second. */
function metricsSpec(client: Record<string, string>, arrivals: number): LoadSpec {
  const toggles = Object.fromEntries(Array.from({ length: WRITE_FLAGS }, (_, i) => [writeFlag(i + 1), { yes: 3, no: 1 }]));
  const body = () => {
    const now = new Date().toISOString();
    return JSON.stringify({ appName: "bench", instanceId: "bench-1", bucket: { start: now, stop: now, toggles } });
  };
  return {
    method: "POST",
    path: () => "/api/client/metrics",
    headers: client,
    connections: 2,
    arrivals,
    next: () => ({ method: "POST", path: "/api/client/metrics", body: body() }),
  };
}

/** How often a lock was waited for while `work` ran: pg_locks sampled every 100 ms, and the database's deadlocks. */
async function withLockSampling<T>(db: pg.Client, database: string, work: () => Promise<T>) {
  const deadlocks = async () =>
    Number((await db.query("select deadlocks from pg_stat_database where datname = $1", [database])).rows[0]?.deadlocks ?? 0);
  const deadlocksBefore = await deadlocks();
  let samples = 0;
  let waiting = 0;
  let most = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const { rows } = await db.query<{ n: string }>(
        "select count(*) as n from pg_locks l join pg_stat_activity a using (pid) where not l.granted and a.datname = $1",
        [database],
      );
      const n = Number(rows[0]?.n);
      samples++;
      if (n > 0) waiting++;
      most = Math.max(most, n);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    const result = await work();
    // A backend reports its counts to the statistics within a second or so of its transaction.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return { result, samples, waiting, most, deadlocks: (await deadlocks()) - deadlocksBefore };
  } finally {
    running = false;
    await sampler;
  }
}

/** Every write answered: req/s summed over the instances, the worst p99, non-2xx and 503s (statement timeouts). */
function writesOf(runs: LoadStats[]) {
  const timeouts = runs.reduce((sum, r) => sum + Number(/(?:^| )503:(\d+)/.exec(r.codes)?.[1] ?? 0), 0);
  return {
    rps: runs.reduce((sum, r) => sum + r.rps, 0),
    p99: Math.max(...runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.failures, 0),
    timeouts,
    codes: runs.map((r) => r.codes).join(" | "),
  };
}

export interface MixedOptions {
  servers: [Target, Target];
  /** Unleash 8.2 with its admin and client tokens (of `default` in development), when BENCH_PEER=1. */
  peer?: { target: Target; admin: Record<string, string>; client: Record<string, string> };
  db: pg.Client;
  database: string;
  admin: Record<string, string>;
  /** A client token of `default` in development: the SDK's metrics. */
  metricsClient: Record<string, string>;
  /** The SDKs' polls of the client API. */
  poll: LoadSpec;
  /** The console's searches. */
  search: LoadSpec;
  flags: number;
  seconds: number;
  log: (line: string) => void;
}

/** Runs the mixed load and the admin-writes comparison; returns the report's lines. */
export async function runMixedScenario(o: MixedOptions): Promise<string[]> {
  const [a, b] = o.servers;
  await addWriteFlags(a.base, o.admin);
  if (o.peer) await addWriteFlags(o.peer.target.base, o.peer.admin);
  const seconds = Math.max(30, o.seconds);
  o.log(`mixed: searches (10 connections), writes at 10/s, metrics at 5/s and polls at 50/s through each of two instances, ${seconds} s`);
  const sampled = await withLockSampling(o.db, o.database, () =>
    Promise.all([
      runLoad(a.base, o.search, seconds),
      ...[a, b].flatMap((server) => [
        runLoad(server.base, writeSpec(o.admin, 8, 10), seconds),
        runLoad(server.base, metricsSpec(o.metricsClient, 5), seconds),
        runLoad(server.base, { ...o.poll, connections: 10, arrivals: 50 }, seconds),
      ]),
    ]),
  );
  const [search, writesA, , pollA, writesB, , pollB] = sampled.result as LoadStats[];
  const writes = writesOf([writesA as LoadStats, writesB as LoadStats]);

  // The admins' writes alone, as fast as eight people make them, while an SDK reports every second.
  const burst = Math.max(10, o.seconds);
  const writeAlone = async (targets: { base: string; admin: Record<string, string>; client: Record<string, string> }[]) => {
    const runs = await Promise.all(
      targets.flatMap((t) => [
        runLoad(t.base, writeSpec(t.admin, 8 / targets.length), burst),
        runLoad(t.base, metricsSpec(t.client, 1 / targets.length), burst),
      ]),
    );
    return writesOf(runs.filter((_, i) => i % 2 === 0));
  };
  o.log(`admin writes: 8 connections, ${burst} s, through one instance, then two`);
  const one = await writeAlone([{ base: a.base, admin: o.admin, client: o.metricsClient }]);
  const two = await writeAlone([a, b].map((s) => ({ base: s.base, admin: o.admin, client: o.metricsClient })));
  const peer = o.peer;
  if (peer) o.log("admin writes: through Unleash 8.2");
  const unleash = peer ? await writeAlone([{ base: peer.target.base, admin: peer.admin, client: peer.client }]) : undefined;

  const s = search as LoadStats;
  const twoRatio = two.rps / one.rps;
  const lines = [
    `mixed load, ${o.flags} flags searched, ${seconds} s:`,
    `  search p99 ${s.p99} ms (${s.rps.toFixed(0)} req/s, ${s.failures} failed: ${s.codes}); SDK polls p99 ${Math.max((pollA as LoadStats).p99, (pollB as LoadStats).p99)} ms`,
    `  writes p99 ${writes.p99} ms, ${writes.rps.toFixed(1)} req/s, ${writes.errors} non-2xx, ${writes.timeouts} lock timeouts (503); statuses ${writes.codes}`,
    `  lock waits: ${sampled.waiting} of ${sampled.samples} samples of pg_locks had a lock not granted (at most ${sampled.most} at once); deadlocks (pg_stat_database): ${sampled.deadlocks}`,
    `admin writes alone (8 connections, an SDK's metrics every second, ${burst} s):`,
    `  one instance ${one.rps.toFixed(0)} req/s (p99 ${one.p99} ms, ${one.errors} non-2xx); two instances ${two.rps.toFixed(0)} req/s (p99 ${two.p99} ms, ${two.errors} non-2xx)${unleash ? `; Unleash 8.2 ${unleash.rps.toFixed(0)} req/s (p99 ${unleash.p99} ms, ${unleash.errors} non-2xx)` : ""}`,
    "targets:",
    check(`search p99 < 100 ms at ${o.flags} flags in the mixed load`, `${s.p99} ms`, s.p99 < 100 && s.failures === 0),
    check(
      "0 write errors and 0 lock timeouts",
      `${writes.errors} errors, ${writes.timeouts} timeouts`,
      writes.errors === 0 && writes.timeouts === 0,
    ),
    check("admin writes through two instances >= 0.9x one", `${twoRatio.toFixed(2)}x`, twoRatio >= 0.9 && one.errors + two.errors === 0),
  ];
  if (unleash) {
    const peerRatio = one.rps / unleash.rps;
    lines.push(check("admin writes through one instance >= 1.5x Unleash 8.2", `${peerRatio.toFixed(2)}x`, peerRatio >= 1.5));
  }
  return lines;
}
