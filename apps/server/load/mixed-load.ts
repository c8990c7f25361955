import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Pool } from "undici";

export interface MixedLoadOptions {
  /** Servers to send to, in turn (two instances on one database get alternate requests). */
  urls: string[];
  /** Requests started per second, whether or not earlier ones have finished (an open model). */
  rate: number;
  durationMs: number;
  /** An admin token: it may do everything the mix does. */
  adminToken: string;
  /** A user to log in as, for the login share of the mix. */
  login: { username: string; password: string };
  /** More requests in flight than this counts as the server falling behind. */
  maxInFlight?: number;
}

export interface MixedLoadResult {
  requests: number;
  errors: number;
  /** The first few errors, for the report. */
  errorSamples: string[];
  byKind: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  /** Heap used after a full GC, sampled once a second. */
  heapSamplesMb: number[];
}

const FEATURE = "load-feature";
const BASE = "/api/admin/projects/default";
const VARIANTS = `${BASE}/features/${FEATURE}/environments/development/variants`;

// The mix: mostly reads, as an admin UI and SDK-facing tools make them, some writes, a few logins.
const MIX: { kind: string; weight: number }[] = [
  { kind: "get variants", weight: 45 },
  { kind: "list banners", weight: 15 },
  { kind: "pending change requests", weight: 10 },
  { kind: "create banner", weight: 10 },
  { kind: "put variants", weight: 18 },
  // One login a second at 50/s: more saturates one bcrypt worker on a 2-core machine (see the report).
  { kind: "login", weight: 2 },
];

function gcFunction(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * A fixed-rate mixed workload against running servers. Every request must succeed; the caller's
 * server process is sampled for heap after GC, so a leak shows as a rising line.
 */
export async function runMixedLoad(options: MixedLoadOptions): Promise<MixedLoadResult> {
  const pools = options.urls.map((url) => new Pool(url, { connections: 16 }));
  const auth = { authorization: options.adminToken };
  const json = { ...auth, "content-type": "application/json" };
  const setup = await pools[0]!.request({
    method: "POST",
    path: `${BASE}/features`,
    headers: json,
    body: JSON.stringify({ name: FEATURE }),
  });
  await setup.body.dump();
  if (setup.statusCode !== 201 && setup.statusCode !== 409) throw new Error(`could not create the load feature: ${setup.statusCode}`);

  const total = MIX.reduce((s, m) => s + m.weight, 0);
  const pick = (n: number) => {
    let x = (n * 7919) % total;
    for (const m of MIX) {
      if (x < m.weight) return m.kind;
      x -= m.weight;
    }
    return MIX[0]!.kind;
  };
  const requestFor = (kind: string, n: number) => {
    switch (kind) {
      case "get variants":
        return { method: "GET", path: VARIANTS, headers: auth };
      case "list banners":
        return { method: "GET", path: "/api/admin/banners", headers: auth };
      case "pending change requests":
        return { method: "GET", path: `${BASE}/change-requests/pending`, headers: auth };
      case "create banner":
        return { method: "POST", path: "/api/admin/banners", headers: json, body: JSON.stringify({ message: `load ${n}` }) };
      case "put variants":
        return {
          method: "PUT",
          path: VARIANTS,
          headers: json,
          body: JSON.stringify([
            { name: `v${n % 5}`, weightType: "variable", stickiness: "default" },
            { name: "w", weightType: "variable", stickiness: "default" },
          ]),
        };
      default:
        return {
          method: "POST",
          path: "/auth/simple/login",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(options.login),
        };
    }
  };

  const gc = gcFunction();
  const heapSamplesMb: number[] = [];
  const sampleHeap = () => {
    gc();
    heapSamplesMb.push(Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10);
  };
  const latencies: number[] = [];
  const byKind: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  let inFlight = 0;
  const maxInFlight = options.maxInFlight ?? 256;
  const running = new Set<Promise<void>>();

  const fire = (n: number) => {
    const kind = pick(n);
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    if (inFlight >= maxInFlight) {
      errors++;
      if (errorSamples.length < 5) errorSamples.push(`${kind}: over ${maxInFlight} requests in flight`);
      return;
    }
    inFlight++;
    const started = performance.now();
    const req = requestFor(kind, n);
    const p = pools[n % pools.length]!.request({ ...req, method: req.method as "GET" })
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode >= 300) throw new Error(`status ${res.statusCode}`);
        latencies.push(performance.now() - started);
      })
      .catch((error: Error) => {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(`${kind}: ${error.message}`);
      })
      .finally(() => {
        inFlight--;
        running.delete(p);
      });
    running.add(p);
  };

  sampleHeap();
  const start = performance.now();
  let sent = 0;
  let nextSample = start + 1000;
  // A deadline-driven loop: the n-th request starts at start + n / rate, however the others fare.
  while (performance.now() - start < options.durationMs) {
    const due = Math.floor(((performance.now() - start) * options.rate) / 1000);
    while (sent < due) fire(sent++);
    if (performance.now() >= nextSample) {
      sampleHeap();
      nextSample += 1000;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(running);
  sampleHeap();
  await Promise.all(pools.map((p) => p.close()));

  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return { requests: sent, errors, errorSamples, byKind, p50Ms: at(0.5), p99Ms: at(0.99), heapSamplesMb };
}

/** Heap growth from the end of warm-up (the first third) to the end of the run, in MiB. */
export function heapGrowthMb(samples: number[]): number {
  const third = Math.max(1, Math.floor(samples.length / 3));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  return Math.round((median(samples.slice(-third)) - median(samples.slice(third, 2 * third))) * 10) / 10;
}
