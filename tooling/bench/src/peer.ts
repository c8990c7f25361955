// The peer baseline (BENCH_PEER=1): the real Unleash 8.2 on Node 24, started by
// @vexil/unleash-peer as the peer tests start it, loaded with the bench's dataset through its own
// admin API, and measured in turns with Vexil on the client API and the frontend API.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { ensureInstalled, peerNodeBinary, startUnleash, UNLEASH_VERSION } from "@vexil/unleash-peer";
import { DEVELOPMENT_VARIANTS, featureName, PRODUCTION_VARIANTS } from "./dataset.ts";
import { FRONTEND_CONSTRAINTS, FRONTEND_VARIANTS, frontendFlagName } from "./frontend-flags.ts";
import type { Target } from "./processes.ts";

/** Unleash's open-source edition has one project: every flag of the peer is in it. */
const PROJECT = "default";
/** Admin requests in flight at once while loading: Unleash writes each in a transaction of its own. */
const LOAD_CONCURRENCY = 8;
/** Flags per bulk call (enable, archive). */
const BULK = 500;

/**
 * The bench again, on the peer's Node 24 (installed first when it is not), unless this is that
 * run: Vexil, the baselines and the load are then on the Node that Unleash runs on, as the issue
 * measures them. Returns the exit code of that run, or undefined in that run itself.
 */
export function rerunOnPeerNode(log: (line: string) => void): number | undefined {
  const installSeconds = ensureInstalled();
  if (installSeconds > 0) log(`Unleash ${UNLEASH_VERSION} and Node 24 installed in ${installSeconds.toFixed(0)} s`);
  const node = peerNodeBinary();
  if (process.execPath === node) return undefined;
  log(`BENCH_PEER: the bench runs again on ${node}`);
  const run = spawnSync(node, [...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit" });
  return run.status ?? 1;
}

export interface Peer {
  /** Unleash as a target of the bench's rounds. */
  target: Target;
  admin: Record<string, string>;
  /** A client token of "default" in development: the client API rows. */
  client: Record<string, string>;
  /** A frontend token of "default" in development: the frontend API row. */
  frontend: Record<string, string>;
  /** Features of the bench's steps loaded so far (1..n). */
  features: number;
  startSeconds: number;
  stop(): Promise<void>;
}

/** Unleash 8.2 on a new database of the bench's Postgres, with tokens of its own. */
export async function startPeer(postgresUrl: string, databaseName: string): Promise<Peer> {
  const secret = (scope: string) => `${scope}.${randomBytes(24).toString("hex")}`;
  const admin = secret("*:*");
  const client = secret(`${PROJECT}:development`);
  const frontend = secret(`${PROJECT}:development`);
  const unleash = await startUnleash({
    postgresUrl,
    databaseName,
    apiTokens: [
      { secret: admin, type: "admin", project: "*", environment: "*", tokenName: "bench-admin" },
      { secret: client, type: "client", project: PROJECT, environment: "development", tokenName: "bench-client" },
      { secret: frontend, type: "frontend", project: PROJECT, environment: "development", tokenName: "bench-frontend" },
    ],
    env: {
      // The bench's features carry variants per environment (Unleash's legacy variants), refused without this switch.
      UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS: "true",
      // The open-source edition's limit of 5,000 flags would stop the step at 10,000.
      UNLEASH_FEATURE_FLAGS_LIMIT: "1000000",
    },
  });
  return {
    target: { name: `Unleash ${UNLEASH_VERSION}`, base: unleash.url, child: unleash.child, output: unleash.lines },
    admin: { authorization: admin },
    client: { authorization: client },
    frontend: { authorization: frontend },
    features: 0,
    startSeconds: unleash.timings.startSeconds,
    stop: () => unleash.stop(),
  };
}

async function call(peer: Peer, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(peer.target.base + path, {
    method,
    headers: body === undefined ? peer.admin : { ...peer.admin, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`Unleash: ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs `work` for each of `items`, `LOAD_CONCURRENCY` at a time. */
async function eachConcurrently<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(LOAD_CONCURRENCY, items.length) }, worker));
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Switches `names` on in `environment`, in bulk calls (Unleash adds its default strategy to a flag that has none). */
async function enable(peer: Peer, environment: string, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i += BULK) {
    await call(peer, "POST", `/api/admin/projects/${PROJECT}/bulk_features/environments/${environment}/on`, {
      features: names.slice(i, i + BULK),
    });
  }
}

/**
 * The bench's features `from`..`to` (dataset.ts addFeatures): each created, with its variants in
 * both environments, and on in both.
 */
export async function addPeerFeatures(peer: Peer, from: number, to: number): Promise<void> {
  const names = range(from, to).map(featureName);
  await eachConcurrently(names, async (name) => {
    await call(peer, "POST", `/api/admin/projects/${PROJECT}/features`, { name });
    const env = `/api/admin/projects/${PROJECT}/features/${name}/environments`;
    await call(peer, "PUT", `${env}/development/variants`, DEVELOPMENT_VARIANTS);
    await call(peer, "PUT", `${env}/production/variants`, PRODUCTION_VARIANTS);
  });
  for (const environment of ["development", "production"]) await enable(peer, environment, names);
  peer.features = Math.max(peer.features, to);
}

/**
 * The frontend scenario's flags (frontend-flags.ts), each created with its rollout (and on every other
 * one, its constraint) and variants in development, and switched on there. The bench's features
 * are archived first: Unleash has one project, and the frontend token must see this set alone, as
 * Vexil's token of the frontend project does.
 */
export async function addPeerFrontendFlags(peer: Peer, count: number): Promise<void> {
  const features = range(1, peer.features).map(featureName);
  for (let i = 0; i < features.length; i += BULK)
    await call(peer, "POST", `/api/admin/projects/${PROJECT}/archive`, { features: features.slice(i, i + BULK) });
  peer.features = 0;
  const names = range(1, count).map(frontendFlagName);
  await eachConcurrently(range(1, count), async (i) => {
    const name = frontendFlagName(i);
    await call(peer, "POST", `/api/admin/projects/${PROJECT}/features`, { name });
    const env = `/api/admin/projects/${PROJECT}/features/${name}/environments/development`;
    await call(peer, "POST", `${env}/strategies`, {
      name: "flexibleRollout",
      parameters: { rollout: "50", stickiness: "userId", groupId: name },
      constraints: i % 2 === 0 ? FRONTEND_CONSTRAINTS : [],
    });
    await call(peer, "PUT", `${env}/variants`, FRONTEND_VARIANTS);
  });
  await enable(peer, "development", names);
}

/**
 * Waits until Unleash serves what was loaded: it learns of a new revision on a timer, and its
 * frontend API refreshes on its own schedule. `ready` reads what Unleash serves and says whether
 * it is complete; false when it is not after `seconds`.
 */
export async function peerServes(ready: () => Promise<boolean>, seconds = 120): Promise<boolean> {
  const end = Date.now() + seconds * 1000;
  while (!(await ready())) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}
