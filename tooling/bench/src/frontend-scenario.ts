import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type pg from "pg";
import { FRONTEND_PROJECT, FRONTEND_QUERY, seedFrontendFlags } from "./frontend-flags.ts";
import { type FrontendPollResult, runFrontendPolls } from "./frontend-polls.ts";
import type { LoadSpec } from "./load.ts";
import type { Target } from "./processes.ts";
import { type Measured, medianOf, type Row } from "./report.ts";

const run = promisify(execFile);

interface FrontendScenarioOptions {
  server: Target;
  /** The server of the before/after mode, measured in the same rounds; the SDK syncs from `server` only. */
  before?: Target | undefined;
  /** Baseline (a), which is told the bytes the server answered. */
  memory: Target;
  client: pg.Client;
  /**
   * Called once the flags and tokens are in place, before any measurement: when the before server
   * has a copy of the database of its own, they are made there too.
   */
  mirror?: ((flags: number) => Promise<void>) | undefined;
  admin: Record<string, string>;
  flags: number;
  connections: number;
  rounds: number;
  durationS: number;
  warmupS: number;
  /** Every round's measurement of each target, taken in turns. */
  sampleInTurns(targets: Target[], spec: LoadSpec | ((target: Target) => LoadSpec)): Promise<Measured[][]>;
  api(
    base: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ text: string; json: any; headers: Headers }>;
  log(line: string): void;
}

export interface FrontendResult {
  row: Row;
  /** Baseline (c): the SDK in one process evaluating the whole flag set, context after context. */
  sdkSetsPerS: number;
  /** Every round's measurement of the server and, in the before/after mode, of the before server. */
  rounds: { after: Measured[]; before?: Measured[] };
  /** The repeated polls (frontend API and OFREP bulk), each a 304 from the poll ETag. */
  polls: FrontendPollResult[];
}

/**
 * The frontend API answering browsers (issue 18): `GET /api/frontend` with a frontend token, one
 * evaluation of every flag of the set per request, each request with another userId. Paired with
 * (a) bare node:http answering the same bytes from memory and (c) the SDK evaluating the same flags
 * in process; the server's req/s is its evaluations of the set per second.
 */
export async function runFrontendScenario(o: FrontendScenarioOptions): Promise<FrontendResult> {
  await seedFrontendFlags(o.client, o.flags);
  const scope = { projects: [FRONTEND_PROJECT], environment: "development" };
  const frontend = await o.api(o.server.base, "POST", "/api/admin/api-tokens", o.admin, {
    tokenName: "bench-frontend",
    type: "frontend",
    ...scope,
  });
  const sdk = await o.api(o.server.base, "POST", "/api/admin/api-tokens", o.admin, {
    tokenName: "bench-frontend-sdk",
    type: "client",
    ...scope,
  });
  await o.mirror?.(o.flags);
  const headers = { authorization: frontend.json.secret as string };
  const sample = await o.api(o.server.base, "GET", `/api/frontend?userId=u1&${FRONTEND_QUERY}`, headers);
  const on = (sample.json.toggles as unknown[]).length;
  o.log(`frontend API: ${o.flags} flags in "${FRONTEND_PROJECT}", ${on} on for one context (${sample.text.length} bytes)`);
  await fetch(`${o.memory.base}/bench/frontend`, { method: "PUT", body: sample.text });
  const spec: LoadSpec = {
    method: "GET",
    path: () => `/api/frontend?userId=u${Math.floor(Math.random() * 1e9)}&${FRONTEND_QUERY}`,
    headers,
    connections: o.connections,
  };
  o.log(`GET frontend API at ${o.flags} flags`);
  const [server, ...others] = await o.sampleInTurns(o.before ? [o.server, o.before, o.memory] : [o.server, o.memory], spec);
  const before = o.before ? others.shift() : undefined;
  const memory = others[0] as Measured[];
  const polls = await runFrontendPolls({ ...o, headers });
  o.log(`baseline (c): the SDK evaluating the same flags in process, ${o.rounds} times`);
  const sdkSamples: number[] = [];
  for (let round = 0; round < o.rounds; round++) {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "baseline-sdk.ts"], {
      cwd: new URL(".", import.meta.url),
      env: {
        ...process.env,
        BENCH_SERVER: o.server.base,
        BENCH_CLIENT_TOKEN: sdk.json.secret as string,
        BENCH_SECONDS: String(o.durationS),
        BENCH_WARMUP_S: String(o.warmupS),
      },
    });
    sdkSamples.push((JSON.parse(stdout.trim().split("\n").at(-1) as string) as { setsPerS: number }).setsPerS);
  }
  const sdkSetsPerS = sdkSamples.toSorted((a, b) => a - b)[Math.floor(sdkSamples.length / 2)] as number;
  return {
    row: { scenario: "GET frontend API", features: o.flags, server: medianOf(server as Measured[]), memory: medianOf(memory) },
    sdkSetsPerS,
    rounds: { after: server as Measured[], ...(before ? { before } : {}) },
    polls,
  };
}
