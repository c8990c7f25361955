import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type pg from "pg";
import { FRONTEND_PROJECT, FRONTEND_QUERY, seedFrontendFlags } from "./frontend-flags.ts";
import { type FrontendPollResult, runFrontendPolls } from "./frontend-polls.ts";
import type { LoadSpec } from "./load.ts";
import { addPeerFrontendFlags, type Peer, peerServes } from "./peer.ts";
import type { Target } from "./processes.ts";
import { type Measured, medianOf, type Row } from "./report.ts";

const run = promisify(execFile);

interface FrontendScenarioOptions {
  server: Target;
  /** The server of the before/after mode, measured in the same rounds; the SDK syncs from `server` only. */
  before?: Target | undefined;
  /** Unleash 8.2 (BENCH_PEER=1), loaded with the same flags through its admin API and measured in the same rounds. */
  peer?: Peer | undefined;
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

/** The flags and tokens of the scenario, the sample answer for one context, and baseline (a) told it. */
async function prepareFrontend(o: FrontendScenarioOptions) {
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
  return { headers, sample, sdkSecret: sdk.json.secret as string };
}

/** BENCH_ONLY=polls: the scenario's flags and tokens, then only its repeated polls and OFREP's single flag (for profiling them). */
export async function runFrontendPollsScenario(o: FrontendScenarioOptions): Promise<FrontendPollResult[]> {
  const { headers } = await prepareFrontend(o);
  return runFrontendPolls({ ...o, headers });
}

/**
 * The frontend API answering browsers: `GET /api/frontend` with a frontend token, one
 * evaluation of every flag of the set per request, each request with another userId. Paired with
 * (a) bare node:http answering the same bytes from memory and (c) the SDK evaluating the same flags
 * in process; the server's req/s is its evaluations of the set per second.
 */
export async function runFrontendScenario(o: FrontendScenarioOptions): Promise<FrontendResult> {
  const { headers, sample, sdkSecret } = await prepareFrontend(o);
  if (o.peer) await loadPeer(o, o.peer, sample.json.toggles as Toggle[]);
  const spec: LoadSpec = {
    method: "GET",
    path: () => `/api/frontend?userId=u${Math.floor(Math.random() * 1e9)}&${FRONTEND_QUERY}`,
    headers,
    connections: o.connections,
  };
  // Unleash's requests are the same but for its own frontend token.
  const peerSpec: LoadSpec = { ...spec, headers: { ...headers, ...o.peer?.frontend } };
  o.log(`GET frontend API at ${o.flags} flags`);
  const targets = [o.server, ...(o.before ? [o.before] : []), o.memory, ...(o.peer ? [o.peer.target] : [])];
  const [server, ...others] = await o.sampleInTurns(targets, (target) => (target === o.peer?.target ? peerSpec : spec));
  const before = o.before ? others.shift() : undefined;
  const memory = others[0] as Measured[];
  const peer = o.peer ? others[1] : undefined;
  const polls = await runFrontendPolls({ ...o, headers });
  o.log(`baseline (c): the SDK evaluating the same flags in process, ${o.rounds} times`);
  const sdkSamples: number[] = [];
  for (let round = 0; round < o.rounds; round++) {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "baseline-sdk.ts"], {
      cwd: new URL(".", import.meta.url),
      env: {
        ...process.env,
        BENCH_SERVER: o.server.base,
        BENCH_CLIENT_TOKEN: sdkSecret,
        BENCH_SECONDS: String(o.durationS),
        BENCH_WARMUP_S: String(o.warmupS),
      },
    });
    sdkSamples.push((JSON.parse(stdout.trim().split("\n").at(-1) as string) as { setsPerS: number }).setsPerS);
  }
  const sdkSetsPerS = sdkSamples.toSorted((a, b) => a - b)[Math.floor(sdkSamples.length / 2)] as number;
  return {
    row: {
      scenario: "GET frontend API",
      features: o.flags,
      server: medianOf(server as Measured[]),
      memory: medianOf(memory),
      ...(peer ? { peer: medianOf(peer) } : {}),
    },
    sdkSetsPerS,
    rounds: { after: server as Measured[], ...(before ? { before } : {}) },
    polls,
  };
}

/** A toggle of a frontend API answer: its name and variant are what the two servers must agree on. */
interface Toggle {
  name: string;
  variant: { name: string };
}

const summary = (toggles: Toggle[]) => toggles.map((t) => `${t.name}:${t.variant.name}`).sort();

/**
 * The same flags loaded into Unleash through its admin API, waited for until its frontend API
 * answers the sample's context as Vexil did (the same flags on, with the same variants); if it
 * never does, the row is still measured and the difference said.
 */
async function loadPeer(o: FrontendScenarioOptions, peer: Peer, vexil: Toggle[]): Promise<void> {
  const started = performance.now();
  await addPeerFrontendFlags(peer, o.flags);
  o.log(`peer baseline: ${o.flags} frontend flags added through its admin API in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const expected = summary(vexil).join(",");
  let answered: Toggle[] = [];
  const same = await peerServes(async () => {
    const res = await fetch(`${peer.target.base}/api/frontend?userId=u1&${FRONTEND_QUERY}`, { headers: peer.frontend });
    answered = ((await res.json()) as { toggles?: Toggle[] }).toggles ?? [];
    return summary(answered).join(",") === expected;
  });
  const differ = same ? "" : ` (Vexil ${vexil.length}; they differ, the rows are still measured)`;
  o.log(`peer baseline: Unleash answers ${answered.length} toggles on for the sample context${same ? ", as Vexil does" : differ}`);
}
