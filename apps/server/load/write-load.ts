import { Pool } from "undici";

export interface WriteLoadOptions {
  /** Instances on one database; worker w writes through urls[w % urls.length]. */
  urls: string[];
  adminToken: string;
  /** A client token of the flags' project and environment, for the SDK's metrics. */
  clientToken: string;
  /** Flags of the default project, each enabled in development. */
  flags: string[];
  workers: number;
  durationMs: number;
  /** How often the SDK posts its metrics (to each instance in turn). */
  metricsEveryMs: number;
}

export interface WriteLoadResult {
  writes: number;
  /** Answers by kind and status, e.g. `toggle 200`. */
  byStatus: Record<string, number>;
  /** The first few answers with a status of 500 or more, with their bodies. */
  serverErrors: string[];
  /** The first few answers that were neither 2xx nor 5xx. */
  refusals: string[];
  writesPerSecond: number;
  p99Ms: number;
  metricsPosts: number;
}

type Write = { kind: string; method: "POST" | "PATCH" | "PUT"; path: string; body?: unknown };

const BASE = "/api/admin/projects/default/features";
const TAG_VALUES = 10;

/** A person's write in the console: a toggle, a patch of the description, or a change of tags. */
function writeOf(n: number, flag: string): Write {
  const tag = () => ({ type: "simple", value: `load-${Math.floor(Math.random() * TAG_VALUES)}` });
  switch (n % 3) {
    case 0:
      return { kind: "toggle", method: "POST", path: `${BASE}/${flag}/environments/development/${Math.random() < 0.5 ? "on" : "off"}` };
    case 1:
      return {
        kind: "patch",
        method: "PATCH",
        path: `${BASE}/${flag}`,
        body: [{ op: "replace", path: "/description", value: `load ${n}` }],
      };
    default:
      return { kind: "tag", method: "PUT", path: `/api/admin/features/${flag}/tags`, body: { addedTags: [tag()], removedTags: [tag()] } };
  }
}

/**
 * The writes a team makes: `workers` people each writing back to back (toggling, patching and
 * tagging random flags) while an SDK posts metrics for every flag. Only to the given urls; every
 * request has a deadline, and the load ends at `durationMs`.
 */
export async function runWriteLoad(options: WriteLoadOptions): Promise<WriteLoadResult> {
  const pools = options.urls.map((url) => new Pool(url, { connections: options.workers, headersTimeout: 30_000, bodyTimeout: 30_000 }));
  const admin = { authorization: options.adminToken, "content-type": "application/json" };
  const byStatus: Record<string, number> = {};
  const serverErrors: string[] = [];
  const refusals: string[] = [];
  const latencies: number[] = [];
  const end = performance.now() + options.durationMs;
  let writes = 0;

  const worker = async (w: number) => {
    const pool = pools[w % pools.length] as Pool;
    while (performance.now() < end) {
      const n = writes++;
      const write = writeOf(n, options.flags[Math.floor(Math.random() * options.flags.length)] as string);
      const started = performance.now();
      const res = await pool.request({ method: write.method, path: write.path, headers: admin, body: JSON.stringify(write.body ?? {}) });
      const text = await res.body.text();
      latencies.push(performance.now() - started);
      const key = `${write.kind} ${res.statusCode}`;
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      const sample = `${write.method} ${write.path}: ${res.statusCode} ${text.slice(0, 300)}`;
      if (res.statusCode >= 500 && serverErrors.length < 10) serverErrors.push(sample);
      else if (res.statusCode >= 300 && res.statusCode < 500 && refusals.length < 10) refusals.push(sample);
    }
  };

  let metricsPosts = 0;
  const sdk = async () => {
    while (performance.now() < end) {
      const now = new Date().toISOString();
      const toggles = Object.fromEntries(options.flags.map((flag) => [flag, { yes: 3, no: 1 }]));
      const pool = pools[metricsPosts++ % pools.length] as Pool;
      const res = await pool.request({
        method: "POST",
        path: "/api/client/metrics",
        headers: { authorization: options.clientToken, "content-type": "application/json" },
        body: JSON.stringify({ appName: "load", instanceId: "load-1", bucket: { start: now, stop: now, toggles } }),
      });
      const text = await res.body.text();
      const key = `metrics ${res.statusCode}`;
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      if (res.statusCode >= 300 && serverErrors.length < 10)
        serverErrors.push(`POST /api/client/metrics: ${res.statusCode} ${text.slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(options.metricsEveryMs, Math.max(0, end - performance.now()))));
    }
  };

  const started = performance.now();
  await Promise.all([sdk(), ...Array.from({ length: options.workers }, (_, w) => worker(w))]);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(pools.map((pool) => pool.close()));
  latencies.sort((a, b) => a - b);
  const p99Ms = Math.round((latencies[Math.max(0, Math.ceil(0.99 * latencies.length) - 1)] ?? 0) * 10) / 10;
  return { writes, byStatus, serverErrors, refusals, writesPerSecond: writes / seconds, p99Ms, metricsPosts };
}
