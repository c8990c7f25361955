// The bench's own knobs. It is a developer tool, not the server, so it reads its environment here.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not "${raw}"`);
  return value;
};
const list = (name: string, fallback: number[]): number[] => {
  const raw = process.env[name];
  if (!raw) return fallback;
  return raw.split(",").map((part) => {
    const value = Number(part.trim());
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a comma-separated list of positive integers`);
    return value;
  });
};

export interface BenchSettings {
  /** A Postgres server where the bench may create (and then drop) a database of its own. */
  postgresUrl: string;
  durationS: number;
  warmupS: number;
  /** Each figure is the median of this many measurements, taken in turns with its baselines'. */
  rounds: number;
  connections: number;
  /** Feature counts the growth scenarios run at, ascending; the other scenarios run at the last. */
  featureSteps: number[];
  changeRequestsInProject: number;
  changeRequestsElsewhere: number;
  stormLogins: number;
  stormGetConnections: number;
  /** Changes written through the server and timed until a second instance serves them. */
  crossInstanceChanges: number;
  /**
   * The apps/server folder of another checkout (installed, at an earlier commit), to measure that
   * server with this bench and these baselines: the before/after of an optimisation. Default: ours.
   */
  serverDir: URL | undefined;
  /**
   * The apps/server folder of another installed and built checkout, the code before a change: one
   * run then measures that server and ours in turns in every request-rate scenario, on the same
   * database and requests, and prints a before/after table with each figure's verdict.
   */
  beforeDir: URL | undefined;
  /** When set, the server runs with --cpu-prof and writes its profile here. */
  cpuProfDir: string | undefined;
  /** Flags in the frontend API scenario's set (every one evaluated per request). */
  frontendFlags: number;
  /** Concurrent SSE streams the streaming scenario opens on the server, one run per count; empty skips it. */
  streams: number[];
  /** Flag changes timed from the admin write to every stream, per stream count. */
  streamChanges: number;
  /** Seconds the embedded server is left alone after /ready before its idle memory is read. */
  memoryIdleS: number;
  /** Flags in the search scenario's project (GET /api/admin/search/features). */
  searchFeatures: number;
  /** Concurrent searches, back to back: the machine full of searches, not an SDK fleet. */
  searchConnections: number;
  /**
   * Searches a second arriving at random moments (people typing in the console, each search sent
   * whether or not the last was answered), for the search rows of an open load; 0 for none.
   */
  searchArrivals: number;
  /** Archived flags added beside the served ones for the client API's "archived" rows. */
  archivedFlags: number;
  /** BENCH_ARCHIVE_FLAGS: live flags archived in one call (then revived), each round (target: under 2 s at 1,000). */
  archiveFlags: number;
  /**
   * One scenario alone, for a quick look: "frontend" (about a minute), "polls" (of the frontend
   * scenario, only its repeated polls and OFREP's single flag), "streams" (at the first feature
   * count), "search" (search, and the client API with archived flags, at the first feature
   * count), "mixed" (searches at BENCH_SEARCH_FEATURES flags while two instances take writes, SDK
   * polls and metrics; then admin writes through one instance, two, and Unleash with BENCH_PEER=1), "memory" (the embedded server's resident memory, idle and under load; no Postgres)
   * or "evaluator" (the two frontend evaluators in process, no server); unset runs everything
   * but "evaluator".
   */
  only: Only | undefined;
  /**
   * BENCH_PEER=1: Unleash 8.2 as a baseline of the client API and frontend API rows (installed with
   * npm on first use), and the whole bench on its Node 24.
   */
  peer: boolean;
}

type Only = "frontend" | "polls" | "streams" | "search" | "mixed" | "memory" | "evaluator";
const ONLY: readonly string[] = ["frontend", "polls", "streams", "search", "mixed", "memory", "evaluator"];

function onlyScenario(raw: string | undefined): Only | undefined {
  if (!raw) return undefined;
  if (!ONLY.includes(raw))
    throw new Error(
      `BENCH_ONLY must be "frontend", "polls", "streams", "search", "mixed", "memory" or "evaluator" (or unset for every scenario), not "${raw}"`,
    );
  return raw as Only;
}

const serverFolder = (name: string): URL | undefined => {
  const raw = process.env[name];
  return raw ? pathToFileURL(`${resolve(raw)}/`) : undefined;
};

export function loadBenchSettings(): BenchSettings {
  const only = onlyScenario(process.env.BENCH_ONLY);
  const beforeDir = serverFolder("BENCH_BEFORE_DIR");
  // The streaming scenario is timed on one server; there would be nothing to compare.
  if (beforeDir && (only === "streams" || only === "search" || only === "mixed" || only === "memory" || only === "evaluator"))
    throw new Error(`BENCH_BEFORE_DIR compares request rates of both servers: it does not apply to BENCH_ONLY=${only}`);
  const featureSteps = list("BENCH_FEATURES", [100, 10_000, 100_000]).sort((a, b) => a - b);
  return {
    postgresUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
    durationS: num("BENCH_DURATION_S", 5),
    warmupS: num("BENCH_WARMUP_S", 2),
    rounds: Math.max(1, num("BENCH_ROUNDS", 3)),
    connections: num("BENCH_CONNECTIONS", 50),
    featureSteps,
    changeRequestsInProject: num("BENCH_CHANGE_REQUESTS", 1_000),
    changeRequestsElsewhere: num("BENCH_OTHER_CHANGE_REQUESTS", 100_000),
    stormLogins: num("BENCH_STORM_LOGINS", 32),
    crossInstanceChanges: Math.max(1, num("BENCH_CROSS_INSTANCE_CHANGES", 20)),
    stormGetConnections: num("BENCH_STORM_GET_CONNECTIONS", 10),
    serverDir: serverFolder("BENCH_SERVER_DIR"),
    beforeDir,
    cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
    frontendFlags: num("BENCH_FRONTEND_FLAGS", 1_000),
    streams: process.env.BENCH_STREAMS === "0" ? [] : list("BENCH_STREAMS", [1_000, 5_000, 20_000]),
    streamChanges: Math.max(1, num("BENCH_STREAM_CHANGES", 5)),
    memoryIdleS: num("BENCH_MEMORY_IDLE_S", 15),
    searchFeatures: Math.max(1, num("BENCH_SEARCH_FEATURES", 100_000)),
    searchConnections: Math.max(1, num("BENCH_SEARCH_CONNECTIONS", 10)),
    searchArrivals: Math.max(0, num("BENCH_SEARCH_ARRIVALS", 50)),
    archivedFlags: num("BENCH_ARCHIVED_FLAGS", 100_000),
    archiveFlags: Math.max(1, num("BENCH_ARCHIVE_FLAGS", 1_000)),
    only,
    peer: process.env.BENCH_PEER === "1",
  };
}
