// The benchmark suite. Not a test: `pnpm bench` at the root runs it. It makes a database
// of its own on a real Postgres (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local one),
// starts the server and two baselines as child processes, drives each with autocannon on
// 127.0.0.1 only, prints one table, and drops the database. Knobs: see settings.ts.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDb } from "@vexil/db/testing";
import pg from "pg";
import { type Comparison, formatBeforeAfter, roundOrder } from "./before-after.ts";
import { measureCrossInstanceChange } from "./cross-instance-change.ts";
import { addFeatures, CALLER_PENDING, featureName, PROJECT, seedChangeRequests, seedProjects } from "./dataset.ts";
import { runEvaluatorScenario } from "./evaluator-scenario.ts";
import { seedFrontendFlags } from "./frontend-flags.ts";
import { type FrontendPollResult, pollTarget } from "./frontend-polls.ts";
import { type FrontendResult, runFrontendPollsScenario, runFrontendScenario } from "./frontend-scenario.ts";
import { type LoadSpec, runLoad } from "./load.ts";
import { startLoginStorm } from "./login-storm.ts";
import { runMemoryScenario } from "./memory-scenario.ts";
import { runMixedScenario } from "./mixed-scenario.ts";
import { addPeerFeatures, type Peer, peerServes, rerunOnPeerNode, startPeer } from "./peer.ts";
import { cpuSeconds, postgresCpu, postgresCpuSecondsSince, startTarget, stopTarget, type Target, withPeakRss } from "./processes.ts";
import { serverStartArgs } from "./server-start-args.ts";
import { check, formatTable, type Measured, medianOf, type Row } from "./report.ts";
import { loadBenchSettings } from "./settings.ts";
import {
  ARCHIVE_PROJECT,
  removeArchivedFlags,
  SEARCH_PROJECT,
  searchSpecs,
  seedArchiveFlags,
  seedArchivedFlags,
  seedSearchFlags,
} from "./search-scenario.ts";
import { checkOpenFilesFor, formatStreamingTable, measureStreams, type StreamingResult } from "./streams.ts";

const settings = loadBenchSettings();
const PASSWORD = "bench-password-1234";
const STORM_USERS = 40;
const ADMIN_TOKEN = `*:*.${randomBytes(24).toString("hex")}`;
const SESSION_SECRET = randomBytes(32).toString("hex");
const SERVER_DIR = settings.serverDir ?? new URL("../../../apps/server/", import.meta.url);
const BEFORE_DIR = settings.beforeDir;
const HERE = new URL(".", import.meta.url);

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function api(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { text, json: JSON.parse(text), headers: res.headers };
}

/** One measurement of `target` under `spec`, after a warm-up when `warm` is set. */
async function measure(target: Target, spec: LoadSpec, warm: boolean): Promise<Measured> {
  if (target.child.exitCode !== null || target.child.signalCode !== null) throw new Error(`${target.name} is not running`);
  if (warm && settings.warmupS > 0) await runLoad(target.base, spec, settings.warmupS);
  const cpuBefore = cpuSeconds(target.child.pid);
  const postgresBefore = postgresCpu();
  const { result, peakRssMb } = await withPeakRss(target.child.pid, () => runLoad(target.base, spec, settings.durationS));
  // CPU time per answer: unlike req/s, it hardly moves with what else keeps the machine's cores busy.
  const cpuUsPerRequest = ((cpuSeconds(target.child.pid) - cpuBefore) * 1e6) / result.total;
  const postgresCpuUsPerRequest = (postgresCpuSecondsSince(postgresBefore) * 1e6) / result.total;
  return {
    stats: result,
    peakRssMb,
    ...(Number.isFinite(cpuUsPerRequest) ? { cpuUsPerRequest } : {}),
    ...(Number.isFinite(postgresCpuUsPerRequest) ? { postgresCpuUsPerRequest } : {}),
  };
}

/** The load of a scenario, or each target's own (a 304 needs the ETag that target answered). */
type SpecFor = LoadSpec | ((target: Target) => LoadSpec);

/**
 * Every round's measurement of each target under `spec`: `rounds` measurements taken in turns
 * (server, then each baseline, then again), so that a slow spell of a shared machine falls on all
 * of them alike. The servers in `alternate` (before and after) swap places in odd rounds.
 */
async function sampleInTurns(targets: Target[], spec: SpecFor, alternate: Target[] = []): Promise<Measured[][]> {
  const samples = new Map(targets.map((t): [Target, Measured[]] => [t, []]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const target of roundOrder(targets, round, alternate)) {
      samples.get(target)?.push(await measure(target, typeof spec === "function" ? spec(target) : spec, round === 0));
    }
  }
  return targets.map((t) => samples.get(t) as Measured[]);
}

/** The checkout a server folder is at, for the report; empty when it is not a git checkout. */
function commitOf(serverDir: URL): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: serverDir, encoding: "utf8" }).trim();
    const line = git("log", "-1", "--format=%h %s");
    // What runs is the working tree, which may be ahead of its commit.
    const dirty = git("status", "--porcelain", "--untracked-files=no") ? " + uncommitted changes" : "";
    return (line.length > 72 ? `${line.slice(0, 71)}…` : line) + dirty;
  } catch {
    return "";
  }
}

/** The migrations in a packages/db folder, by file name; undefined when there is no such folder. */
function migrationsIn(folder: URL): string[] | undefined {
  if (!existsSync(folder)) return undefined;
  return readdirSync(folder).filter((f) => /^\d.*\.ts$/.test(f));
}

/**
 * The migrations of ours that the before checkout lacks, by name (as in the migration table),
 * checked before any work. Its migrator refuses a database with migrations it does not know: with
 * any, it runs on a copy of the bench's database without their rows in the migration table.
 */
function newerMigrations(beforeDir: URL): string[] {
  if (!existsSync(new URL("package.json", beforeDir))) throw new Error(`BENCH_BEFORE_DIR has no package.json: ${beforeDir.pathname}`);
  // The bench's database is migrated by this checkout's packages/db (createTestDb).
  const ours = migrationsIn(new URL("../../../packages/db/src/migrations/", import.meta.url));
  const theirs = migrationsIn(new URL("../../packages/db/src/migrations/", beforeDir));
  const unknown = ours && theirs ? ours.filter((m) => !theirs.includes(m)) : [];
  return unknown.map((file) => file.replace(/\.ts$/, ""));
}

/** The connection string of another database on the same Postgres. */
function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs `work` on a connection to the Postgres the bench uses, outside the bench's database. */
async function onPostgres(work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: settings.postgresUrl });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

/** Starts the before server on the bench's database, next to ours. */
async function startBeforeServer(beforeDir: URL, env: Record<string, string>): Promise<Target> {
  // It is installed and built; built here only when it has never been (a pre-bundle checkout starts from source).
  if (existsSync(new URL("scripts/build.mjs", beforeDir)) && !existsSync(new URL("dist/", beforeDir)))
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: beforeDir, stdio: "inherit" });
  return startTarget("server (before)", serverStartArgs(beforeDir), { cwd: beforeDir, env, readyPath: "/ready" });
}

/**
 * The frontend scenario's flags and tokens made on the before server's copy of the database too:
 * the flags as on ours, the tokens (made through our server) copied row for row.
 */
function mirrorFrontend(ours: pg.Client, copy: pg.Client) {
  return async (flags: number) => {
    await seedFrontendFlags(copy, flags);
    const tokens = await ours.query<{ rows: unknown[] }>(
      "select coalesce(json_agg(t), '[]') as rows from api_tokens t where token_name like 'bench-frontend%'",
    );
    await copy.query("insert into api_tokens overriding system value select * from json_populate_recordset(null::api_tokens, $1)", [
      JSON.stringify(tokens.rows[0]?.rows),
    ]);
    // Its identity goes on after them, as ours does.
    await copy.query("select setval(pg_get_serial_sequence('api_tokens', 'id'), (select max(id) from api_tokens))");
  };
}

/** The repeated polls' and OFREP's single flag's targets, each with the CPU time an answer took the server and (a). */
function pollReport(polls: FrontendPollResult[]): string[] {
  return polls.flatMap(({ row: poll, rounds }) => {
    const pollRatio = poll.server.stats.rps / (poll.memory?.stats.rps ?? Number.NaN);
    const target = pollTarget(poll.scenario);
    const cpu = poll.server.cpuUsPerRequest;
    const cpuA = poll.memory?.cpuUsPerRequest;
    const cpuBefore = rounds.before ? medianOf(rounds.before).cpuUsPerRequest : undefined;
    return [
      check(`${poll.scenario} at ${poll.features} flags vs baseline (a) >= ${target}x`, `${pollRatio.toFixed(2)}x`, pollRatio >= target),
      ...(cpu !== undefined && cpuA !== undefined
        ? [
            `        CPU per answer (median of rounds): server ${cpu.toFixed(1)} µs, (a) ${cpuA.toFixed(1)} µs; (a)'s over the server's ${(cpuA / cpu).toFixed(2)}x${cpuBefore === undefined ? "" : `; before server ${cpuBefore.toFixed(1)} µs`}`,
          ]
        : []),
    ];
  });
}

/** The frontend scenario's lines under the table, and its target. */
function frontendReport({ row, sdkSetsPerS, polls }: FrontendResult): string[] {
  const rps = row.server.stats.rps;
  const ratio = rps / (row.memory?.stats.rps ?? Number.NaN);
  const pollChecks = pollReport(polls);
  const peerRatio = rps / (row.peer?.stats.rps ?? Number.NaN);
  const peerCheck = row.peer
    ? [check(`GET frontend API at ${row.features} flags vs Unleash 8.2 >= 5x`, `${peerRatio.toFixed(2)}x`, peerRatio >= 5)]
    : [];
  const cpu = row.server.cpuUsPerRequest;
  const cpuPeer = row.peer?.cpuUsPerRequest;
  const cpuLine =
    cpu === undefined
      ? []
      : [
          `        CPU per answer (median of rounds): server ${cpu.toFixed(0)} µs${cpuPeer === undefined ? "" : `, Unleash ${cpuPeer.toFixed(0)} µs; Unleash's over the server's ${(cpuPeer / cpu).toFixed(2)}x`}`,
        ];
  return [
    ...peerCheck,
    ...cpuLine,
    `frontend API: ${rps.toFixed(0)} evaluations of the ${row.features}-flag set/s; (c) the SDK (unleash-client) in one process: ${sdkSetsPerS.toFixed(0)}/s = ${(rps / sdkSetsPerS).toFixed(2)}x of (c)`,
    check(`GET frontend API at ${row.features} flags vs baseline (a) >= 0.5x`, `${ratio.toFixed(2)}x`, ratio >= 0.5),
    ...pollChecks,
  ];
}

/** The server runs as `pnpm start` runs it: built, as plain JavaScript, with its node flags. */
function buildServer(): void {
  // (Checkouts from before the bundle, given as BENCH_SERVER_DIR, start from source instead.)
  if (existsSync(new URL("scripts/build.mjs", SERVER_DIR)))
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: SERVER_DIR, stdio: "inherit" });
}

/** The embedded server's memory, idle and under the client and frontend APIs' load at the frontend scenario's flag count. */
const memoryScenario = () =>
  runMemoryScenario({
    serverDir: SERVER_DIR,
    flags: settings.frontendFlags,
    connections: settings.connections,
    durationS: settings.durationS,
    rounds: settings.rounds,
    idleS: settings.memoryIdleS,
    log,
  });

async function main(): Promise<void> {
  log(
    `node ${process.version}, ${cpus().length} cores, load average ${load()}; each figure the median of ${settings.rounds} measurements of ${settings.durationS} s, after ${settings.warmupS} s of warm-up`,
  );
  if (settings.only === "evaluator") {
    runEvaluatorScenario(settings.rounds, log);
    return;
  }
  if (settings.only === "memory") {
    buildServer();
    console.log(`\n${(await memoryScenario()).join("\n")}`);
    log(`done; load average ${load()}`);
    return;
  }
  if ((settings.only === undefined || settings.only === "streams") && settings.streams.length > 0)
    checkOpenFilesFor(Math.max(...settings.streams));
  const newer = BEFORE_DIR ? newerMigrations(BEFORE_DIR) : [];
  /** The before server runs on a copy of the database, made once it is filled (see startBefore). */
  const onCopy = BEFORE_DIR !== undefined && newer.length > 0;
  if (onCopy)
    log(`before/after: the before checkout lacks ${newer.length} migrations (${newer.join(", ")}): it runs on a copy of the database`);
  const testDb = await createTestDb({ TEST_DATABASE_URL: settings.postgresUrl });
  const databaseUrl = testDb.databaseUrl as string;
  const databaseName = new URL(databaseUrl).pathname.slice(1);
  // Another checkout's server (BENCH_SERVER_DIR) migrates its own database: this bench's migrations may be newer than it knows.
  if (settings.serverDir) {
    const admin = new pg.Client({ connectionString: settings.postgresUrl });
    await admin.connect();
    await admin.query(`drop database "${databaseName}"`);
    await admin.query(`create database "${databaseName}"`);
    await admin.end();
  }
  /** Unleash 8.2 (BENCH_PEER=1): a baseline of the client API and frontend API rows, on a database of its own. */
  let peer: Peer | undefined;
  const copyName = `${databaseName}_before`;
  let copyMade = false;
  let client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  /** The before server's copy of the database, when it has one: the bench's writes are made there too. */
  let copyClient: pg.Client | undefined;
  const targets: Target[] = [];
  try {
    buildServer();
    const serverEnv = {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      LOG_PRETTY: "false",
      SESSION_SECRET,
      INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
      TRUST_PROXY: "127.0.0.1",
      ADMIN_PASSWORD: randomBytes(16).toString("hex"),
      SHUTDOWN_GRACE_MS: "3000",
      STREAMING_MAX_CONNECTIONS: String(Math.max(0, ...settings.streams) + 100),
    };
    // When the before server gets a copy of the database, ours is started again for the copy:
    // only the second start is profiled.
    const startServer = (profiled: boolean) =>
      startTarget(
        "server",
        [
          ...(profiled && settings.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${settings.cpuProfDir}`] : []),
          ...serverStartArgs(SERVER_DIR),
        ],
        { cwd: SERVER_DIR, env: serverEnv, readyPath: "/ready" },
      );
    let server = await startServer(!onCopy);
    targets.push(server);
    if (settings.peer && (settings.only === undefined || settings.only === "frontend" || settings.only === "mixed")) {
      peer = await startPeer(settings.postgresUrl, `${databaseName}_unleash`);
      log(
        `peer baseline: ${peer.target.name} on Node ${process.version} at ${peer.target.base}, started in ${peer.startSeconds.toFixed(1)} s`,
      );
    }
    let before: Target | undefined;
    const labels = {
      before: BEFORE_DIR ? `${fileURLToPath(BEFORE_DIR)} (${commitOf(BEFORE_DIR)})` : "",
      after: `${fileURLToPath(SERVER_DIR)} (${commitOf(SERVER_DIR)})`,
    };
    /** The servers compared, which take turns in every round (just ours without BENCH_BEFORE_DIR). */
    let servers = [server];
    /**
     * Starts the before server. On the one database, right after ours, as a second instance is:
     * the first start's data is then already there. On a copy, once the data the bench makes
     * through our server is in (before any measurement): Postgres copies a database only while
     * no one is connected to it, so our server and the bench's connection close for the copy and
     * come back after. The copy's migration table loses the rows of the migrations the before
     * checkout lacks, which its migrator would refuse; their columns stay, unused by it, so this
     * holds only for additive migrations.
     */
    const startBefore = async () => {
      if (!BEFORE_DIR) return;
      let env = serverEnv;
      if (onCopy) {
        await stopTarget(server);
        targets.splice(targets.indexOf(server), 1);
        await client.end();
        await onPostgres((admin) => admin.query(`create database "${copyName}" template "${databaseName}"`));
        copyMade = true;
        client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        const copyUrl = withDatabase(databaseUrl, copyName);
        copyClient = new pg.Client({ connectionString: copyUrl });
        await copyClient.connect();
        // The table Kysely's Migrator keeps by default (packages/db/src/migrate.ts names none).
        const removed = await copyClient.query("delete from kysely_migration where name = any($1)", [newer]);
        if (removed.rowCount !== newer.length)
          throw new Error(
            `the copy's kysely_migration had ${removed.rowCount} of the ${newer.length} rows to remove (${newer.join(", ")})`,
          );
        log(`before/after: ${copyName}, a copy with ${newer.length} newer migrations' rows removed from its migration table`);
        server = await startServer(true);
        targets.push(server);
        env = { ...serverEnv, DATABASE_URL: copyUrl };
      }
      before = await startBeforeServer(BEFORE_DIR, env);
      targets.push(before);
      servers = [server, before];
      log(`before/after: before = ${labels.before}; after = ${labels.after}`);
    };
    if (!onCopy) await startBefore();
    const inTurns = (against: Target[], spec: SpecFor) => sampleInTurns(against, spec, servers);
    const comparisons: Comparison[] = [];
    const admin = { authorization: ADMIN_TOKEN };

    const caller = await api(server.base, "POST", "/api/admin/user-admin", admin, {
      username: "bench-user",
      password: PASSWORD,
      rootRole: 2,
    });
    const stormUsers = Array.from({ length: STORM_USERS }, (_, i) => `storm-${i + 1}`);
    await Promise.all(
      stormUsers.map((username) => api(server.base, "POST", "/api/admin/user-admin", admin, { username, password: PASSWORD, rootRole: 3 })),
    );
    const login = await api(server.base, "POST", "/auth/simple/login", {}, { username: "bench-user", password: PASSWORD });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";", 1)[0] as string;
    const session = { cookie };
    const pat = await api(server.base, "POST", "/api/admin/user/tokens", session, {
      description: "bench",
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const personal = { authorization: pat.json.secret as string };

    const frontendOptions = (memory: Target) => ({
      server,
      before,
      peer,
      memory,
      client,
      mirror: copyClient && mirrorFrontend(client, copyClient),
      admin,
      flags: settings.frontendFlags,
      connections: settings.connections,
      rounds: settings.rounds,
      durationS: settings.durationS,
      warmupS: settings.warmupS,
      sampleInTurns: inTurns,
      api,
      log,
    });
    const frontendScenario = async (memory: Target) => {
      const result = await runFrontendScenario(frontendOptions(memory));
      for (const measured of [result, ...result.polls])
        if (measured.rounds.before)
          comparisons.push({
            scenario: measured.row.scenario,
            features: measured.row.features,
            before: measured.rounds.before,
            after: measured.rounds.after,
          });
      return result;
    };
    /** Our server's log lines at warn or above (and the before server's), the first few of each. */
    const warningLines = () =>
      servers.flatMap((target) => {
        const warnings = target.output.filter((line) => /"level":(40|50|60)/.test(line) && !/SESSION_SECRET|ADMIN_PASSWORD/.test(line));
        const name = target === server ? "server" : target.name;
        return [`${name} log lines at warn or above: ${warnings.length}`, ...warnings.slice(0, 5).map((line) => `  ${line.slice(0, 300)}`)];
      });
    if (settings.only === "frontend" || settings.only === "polls") {
      if (onCopy) await startBefore();
      const bodiesFile = join(tmpdir(), `vexil-bench-bodies-${process.pid}.json`);
      writeFileSync(bodiesFile, "{}");
      const memory = await startTarget("baseline (a)", ["--import", "tsx", "baseline-memory.ts"], {
        cwd: HERE,
        env: { BENCH_BODIES: bodiesFile },
        readyPath: "/health",
      });
      targets.push(memory);
      if (settings.only === "polls") {
        const polls = await runFrontendPollsScenario({ ...frontendOptions(memory), peer: undefined });
        console.log(`\n${formatTable(polls.map((poll) => poll.row))}\n`);
        console.log("(a) bare node:http answering the same bytes (the same 304) from memory.\n\ntargets:");
        for (const line of pollReport(polls)) console.log(line);
        log(`done; load average ${load()}`);
        return;
      }
      const result = await frontendScenario(memory);
      console.log(`\n${formatTable([result.row, ...result.polls.map((poll) => poll.row)])}\n`);
      console.log(
        "(a) bare node:http answering the same JSON from memory; (c) the SDK evaluating the same flags in process, context after context.\n\ntargets:",
      );
      for (const line of frontendReport(result)) console.log(line);
      if (before) {
        for (const line of warningLines()) console.log(line);
        const notCompared =
          "not compared: the frontend API's baseline (c), the SDK in process (BENCH_ONLY=frontend runs no other scenario).";
        const report = { rounds: settings.rounds, ...labels, notCompared, ...(onCopy ? { copyWithout: newer } : {}) };
        console.log(`\n${formatBeforeAfter(comparisons, report).join("\n")}`);
      }
      return;
    }

    let started = performance.now();
    await seedProjects(client);
    await seedChangeRequests(client, caller.json.id, settings.changeRequestsInProject, settings.changeRequestsElsewhere);
    log(
      `${settings.changeRequestsInProject} change requests in "${PROJECT}" (${CALLER_PENDING} pending of the caller's) and ${settings.changeRequestsElsewhere} in 100 other projects, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    let features = 0;
    const variantsOf = (headers: Record<string, string>, connections = settings.connections): LoadSpec => ({
      method: "GET",
      path: () => {
        const i = 1 + Math.floor(Math.random() * features);
        return `/api/admin/projects/${PROJECT}/features/${featureName(i)}/environments/${Math.random() < 0.5 ? "production" : "development"}/variants`;
      },
      headers,
      connections,
    });
    const pendingSpec: LoadSpec = {
      method: "GET",
      path: () => `/api/admin/projects/${PROJECT}/change-requests/pending`,
      headers: personal,
      connections: settings.connections,
    };
    const bannerBody = JSON.stringify({ message: "Maintenance at **noon**", variant: "warning" });
    const bannerSpec: LoadSpec = {
      method: "POST",
      path: () => "/api/admin/banners",
      headers: admin,
      body: bannerBody,
      connections: settings.connections,
    };

    // The client API at the token's environment: every feature of the bench project, in development.
    const sdkToken = await api(server.base, "POST", "/api/admin/api-tokens", admin, {
      tokenName: "bench-sdk",
      type: "client",
      projects: [PROJECT],
      environment: "development",
    });
    const sdk = { authorization: sdkToken.json.secret as string };
    // Everything the before server needs from our server's API is in: its copy can be made.
    if (onCopy) await startBefore();
    /** The databases the bench writes to: ours, and the before server's copy when it has one. */
    const databases = () => (copyClient ? [client, copyClient] : [client]);
    const clientSpec = (extra: Record<string, string> = {}, expectStatus?: number): LoadSpec => ({
      method: "GET",
      path: () => "/api/client/features",
      // As the Node SDK's fetch sends it.
      headers: { ...sdk, "accept-encoding": "gzip,deflate", ...extra },
      connections: settings.connections,
      ...(expectStatus ? { expectStatus } : {}),
    });

    /**
     * N SSE streams on the server; a flag flipped through the admin API, timed until every stream
     * has it; the server's RSS per stream; the poll and an admin read with and without the streams.
     */
    const streamingScenario = async (): Promise<string[]> => {
      if (settings.streams.length === 0) return [];
      const out: string[] = [];
      const flip = `/api/admin/projects/${PROJECT}/features/${featureName(1)}/environments/development`;
      await api(server.base, "POST", `${flip}/off`, admin);
      const etag = (await api(server.base, "GET", "/api/client/features", sdk)).headers.get("etag") ?? "";
      const pollSpec = clientSpec({ "if-none-match": etag }, 304);
      const adminSpec = variantsOf(admin);
      // Each p99 the median of `rounds` measurements, as elsewhere: one disturbed round does not decide it.
      const measureRounds = async (spec: LoadSpec, warm: boolean) => {
        const samples: Measured[] = [];
        for (let round = 0; round < settings.rounds; round++) samples.push(await measure(server, spec, warm && round === 0));
        return medianOf(samples);
      };
      log(`streaming: poll and admin read without streams`);
      const pollQuiet = await measureRounds(pollSpec, true);
      const adminQuiet = await measureRounds(adminSpec, true);
      const results: StreamingResult[] = [];
      for (const streams of settings.streams) {
        log(`streaming: ${streams} streams, ${settings.streamChanges} changes`);
        results.push(
          await measureStreams({
            server,
            streams,
            changes: settings.streamChanges,
            sdkToken: sdk.authorization,
            change: async (i) => {
              await api(server.base, "POST", `${flip}/${i % 2 === 0 ? "on" : "off"}`, admin);
            },
            measure: (spec) => measureRounds(spec, false),
            pollSpec,
            adminSpec,
          }),
        );
        // Back to off, so that the next count starts from the same state.
        if (settings.streamChanges % 2 === 1) await api(server.base, "POST", `${flip}/off`, admin);
      }
      out.push(formatStreamingTable(results));
      out.push("");
      out.push(
        `streams: raw SSE clients in the bench process; latency from sending the admin write (POST .../on|off) to each stream's unleash-updated frame, over every stream and change.`,
      );
      out.push(
        `RSS: the server's resident memory after the poll and admin read were measured without streams, then with the streams open (and idle) for 2 s.`,
      );
      out.push(
        `client 304 poll and GET variants (admin token), ${settings.connections} connections, ${features} features, each p99 the median of ${settings.rounds} measurements of ${settings.durationS} s:`,
      );
      out.push(
        `  without streams: poll p99 ${pollQuiet.stats.p99} ms (${pollQuiet.stats.rps.toFixed(0)} req/s), admin read p99 ${adminQuiet.stats.p99} ms (${adminQuiet.stats.rps.toFixed(0)} req/s)`,
      );
      for (const r of results) {
        out.push(
          `  with ${r.streams} streams: poll p99 ${r.poll.stats.p99} ms (${r.poll.stats.rps.toFixed(0)} req/s), admin read p99 ${r.adminRead.stats.p99} ms (${r.adminRead.stats.rps.toFixed(0)} req/s)${r.poll.stats.failures + r.adminRead.stats.failures ? " (!) non-2xx or errors" : ""}`,
        );
      }
      out.push("");
      out.push("streaming targets:");
      for (const r of results) {
        out.push(
          check(
            `${r.streams} streams: a change reaches all, p99 < 250 ms`,
            `${r.p99} ms (${r.missed} missed)`,
            r.p99 < 250 && r.missed === 0,
          ),
        );
        out.push(check(`${r.streams} streams: max < 1 s`, `${r.max} ms`, r.max < 1_000 && r.missed === 0));
        // Resident memory, not the heap: a stream's socket handle and HTTP parser live outside the heap.
        out.push(check(`${r.streams} streams: RSS grows < 5 KB a stream`, `${r.kbPerStream.toFixed(1)} KB`, r.kbPerStream < 5));
        const pollRatio = r.poll.stats.p99 / pollQuiet.stats.p99;
        const adminRatio = r.adminRead.stats.p99 / adminQuiet.stats.p99;
        out.push(
          check(
            `${r.streams} streams: poll p99 within 1.5x`,
            `${pollQuiet.stats.p99} -> ${r.poll.stats.p99} ms = ${pollRatio.toFixed(2)}x`,
            pollRatio <= 1.5,
          ),
        );
        out.push(
          check(
            `${r.streams} streams: admin read p99 within 1.5x`,
            `${adminQuiet.stats.p99} -> ${r.adminRead.stats.p99} ms = ${adminRatio.toFixed(2)}x`,
            adminRatio <= 1.5,
          ),
        );
      }
      return out;
    };

    if (settings.only === "streams") {
      const step = settings.featureSteps[0] as number;
      await addFeatures(client, 1, step);
      features = step;
      console.log("");
      console.log((await streamingScenario()).join("\n"));
      for (const line of warningLines()) console.log(line);
      log(`done; load average ${load()}`);
      return;
    }

    const streamingLines: string[] = [];
    let memory: Target | undefined;
    let pgBaseline: Target | undefined;
    const rows: Row[] = [];
    /** A row of the table: the servers (ours, and the before one in that mode) in turns with `baselines`. */
    const run = async (scenario: string, spec: SpecFor, baselines: (Target | undefined)[] = [memory, pgBaseline]) => {
      log(`${scenario} at ${features} features`);
      const against = [...servers, ...baselines].filter((t): t is Target => t !== undefined);
      const samples = await inTurns(against, spec);
      const of = (target: Target | undefined) => (target && against.includes(target) ? samples[against.indexOf(target)] : undefined);
      const row: Row = { scenario, features, server: medianOf(of(server) as Measured[]) };
      const m = of(memory);
      const p = of(pgBaseline);
      const u = of(peer?.target);
      if (m) row.memory = medianOf(m);
      if (p) row.pg = medianOf(p);
      if (u) row.peer = medianOf(u);
      rows.push(row);
      const beforeRounds = of(before);
      if (beforeRounds) comparisons.push({ scenario, features, before: beforeRounds, after: of(server) as Measured[] });
      return row;
    };

    /** A row measured on our server only (with baseline (a) when given): the before server may lack the route or the data. */
    const runOurs = async (scenario: string, count: number, spec: SpecFor, withMemory = false) => {
      log(`${scenario} at ${count} features`);
      const against = withMemory && memory ? [server, memory] : [server];
      const samples = await sampleInTurns(against, spec);
      const row: Row = { scenario, features: count, server: medianOf(samples[0] as Measured[]) };
      if (samples[1]) row.memory = medianOf(samples[1]);
      rows.push(row);
      return row;
    };
    /** GET /api/admin/search/features, a query and a filter, at BENCH_SEARCH_FEATURES flags of a project of their own. */
    const searchScenario = async () => {
      started = performance.now();
      await seedSearchFlags(client, settings.searchFeatures);
      log(
        `search: ${settings.searchFeatures} flags in "${SEARCH_PROJECT}" added in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const specs = searchSpecs(settings.searchFeatures, admin, settings.searchConnections);
      await runOurs("GET search, query", settings.searchFeatures, specs.query);
      await runOurs("GET search, filter", settings.searchFeatures, specs.filter);
      // The same searches as an open load: a rate of arrivals rather than the machine kept full.
      if (settings.searchArrivals > 0) {
        const arrivals = settings.searchArrivals;
        await runOurs(`GET search, query, ${arrivals}/s`, settings.searchFeatures, { ...specs.query, arrivals });
        await runOurs(`GET search, filter, ${arrivals}/s`, settings.searchFeatures, { ...specs.filter, arrivals });
      }
      await archiveScenario();
    };
    /** Archive of BENCH_ARCHIVE_FLAGS flags in one call (POST .../archive), each round revived again; over HTTP as an admin. */
    const archiveMs: number[] = [];
    const archiveScenario = async () => {
      const names = await seedArchiveFlags(client, settings.archiveFlags);
      const post = async (path: string) => {
        const started = performance.now();
        const res = await fetch(`${server.base}/api/admin/projects/${ARCHIVE_PROJECT}/${path}`, {
          method: "POST",
          headers: { ...admin, "content-type": "application/json" },
          body: JSON.stringify({ features: names }),
        });
        const text = await res.text();
        if (res.status >= 300)
          throw new Error(`POST .../${path}: ${res.status} ${text}\nthe server's last lines:\n${server.output.slice(-10).join("\n")}`);
        return performance.now() - started;
      };
      for (let round = 0; round < settings.rounds; round++) {
        archiveMs.push(await post("archive"));
        await post("revive");
      }
      log(`archive of ${names.length} flags in one call: ${archiveMs.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    };
    /** The client API (full and 304) with BENCH_ARCHIVED_FLAGS archived flags beside the served ones, then without them again. */
    const archivedScenario = async () => {
      if (settings.archivedFlags === 0) return;
      started = performance.now();
      await seedArchivedFlags(client, PROJECT, settings.archivedFlags);
      log(`client API: ${settings.archivedFlags} archived flags added in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      // The read model reloads at the insert's notification: the answer once it has settled.
      let served = await api(server.base, "GET", "/api/client/features", sdk);
      for (let i = 0; i < 10; i++) {
        await sleep(300);
        const again = await api(server.base, "GET", "/api/client/features", sdk);
        if (again.headers.get("etag") === served.headers.get("etag")) break;
        served = again;
      }
      const etag = served.headers.get("etag") ?? "";
      await fetch(`${memory?.base}/bench/client-features`, { method: "PUT", body: JSON.stringify({ body: served.text, etag }) });
      // The table's scenario column is narrow: the count of archived flags is in the lines under it.
      await runOurs("client features, +archived", features, clientSpec(), true);
      await runOurs("client 304, +archived", features, clientSpec({ "if-none-match": etag }, 304), true);
      await removeArchivedFlags(client);
    };
    /** Starts baseline (a) with the server's answers at the current feature count. */
    const startMemoryBaseline = async () => {
      const variantsPath = `/api/admin/projects/${PROJECT}/features/${featureName(1)}/environments/production/variants`;
      const bodies = {
        variants: (await api(server.base, "GET", variantsPath, admin)).text,
        pending: (await api(server.base, "GET", `/api/admin/projects/${PROJECT}/change-requests/pending`, personal)).text,
        banner: (await api(server.base, "POST", "/api/admin/banners", admin, JSON.parse(bannerBody))).text,
        clientFeatures: (await api(server.base, "GET", "/api/client/features", sdk)).text,
        clientEtag: (await api(server.base, "GET", "/api/client/features", sdk)).headers.get("etag") ?? "",
      };
      const bodiesFile = join(tmpdir(), `vexil-bench-bodies-${process.pid}.json`);
      writeFileSync(bodiesFile, JSON.stringify(bodies));
      memory = await startTarget("baseline (a)", ["--import", "tsx", "baseline-memory.ts"], {
        cwd: HERE,
        env: { BENCH_BODIES: bodiesFile },
        readyPath: "/health",
      });
      targets.push(memory);
    };
    /** The search rows' targets, and the client API with archived flags beside the rows without them. */
    const searchReport = () => {
      const lines: string[] = [];
      if (archiveMs.length) {
        const median = [...archiveMs].sort((a, b) => a - b)[Math.floor(archiveMs.length / 2)] as number;
        lines.push(
          check(
            `archive of ${settings.archiveFlags} flags in one call < 2 s (median of ${archiveMs.length}; rounds ${archiveMs.map((ms) => ms.toFixed(0)).join(", ")} ms)`,
            `${median.toFixed(0)} ms`,
            median < 2000,
          ),
        );
      }
      for (const row of rows.filter((r) => r.scenario.startsWith("GET search"))) {
        const ok = row.server.stats.p99 < 50 && row.server.stats.failures === 0;
        const load = row.scenario.endsWith("/s")
          ? `arriving at random, at most ${settings.searchConnections} in flight`
          : `${settings.searchConnections} connections back to back`;
        lines.push(check(`${row.scenario} p99 < 50 ms at ${row.features} flags (${load})`, `${row.server.stats.p99} ms`, ok));
        const { cpuUsPerRequest: cpu, postgresCpuUsPerRequest: postgres } = row.server;
        if (cpu !== undefined && postgres !== undefined)
          lines.push(
            `        CPU per search (median of rounds): server ${(cpu / 1000).toFixed(2)} ms, Postgres ${(postgres / 1000).toFixed(2)} ms (every postgres process)`,
          );
      }
      for (const [kind, archivedRow] of [
        ["GET client features", "client features, +archived"],
        ["GET client features, 304", "client 304, +archived"],
      ] as const) {
        const withArchived = rows.find((r) => r.scenario === archivedRow);
        const without = rows.filter((r) => r.scenario === kind && r.features === withArchived?.features).at(-1);
        if (!withArchived || !without) continue;
        const ratio = withArchived.server.stats.rps / without.server.stats.rps;
        lines.push(
          `${kind} at ${without.features} features, with ${settings.archivedFlags} archived flags beside them: ${withArchived.server.stats.rps.toFixed(0)} req/s (p99 ${withArchived.server.stats.p99} ms) against ${without.server.stats.rps.toFixed(0)} (p99 ${without.server.stats.p99} ms) without = ${ratio.toFixed(2)}x`,
        );
      }
      return lines;
    };

    if (settings.only === "mixed") {
      const step = settings.featureSteps[0] as number;
      await addFeatures(client, 1, step);
      await seedSearchFlags(client, settings.searchFeatures);
      log(`mixed: ${step} features in "${PROJECT}", ${settings.searchFeatures} flags in "${SEARCH_PROJECT}"`);
      const second = await startTarget("server B", serverStartArgs(SERVER_DIR), { cwd: SERVER_DIR, env: serverEnv, readyPath: "/ready" });
      targets.push(second);
      const metricsToken = await api(server.base, "POST", "/api/admin/api-tokens", admin, {
        tokenName: "bench-metrics",
        type: "client",
        projects: ["default"],
        environment: "development",
      });
      const { query, filter } = searchSpecs(settings.searchFeatures, admin, settings.searchConnections);
      const newest = `/api/admin/search/features?project=IS:${SEARCH_PROJECT}&sortBy=createdAt&sortOrder=desc`;
      const shapes = [query.path, filter.path, () => newest];
      const lines = await runMixedScenario({
        servers: [server, second],
        ...(peer ? { peer: { target: peer.target, admin: peer.admin, client: peer.client } } : {}),
        db: client,
        database: databaseName,
        admin,
        metricsClient: { authorization: metricsToken.json.secret as string },
        poll: clientSpec(),
        search: { ...query, path: () => (shapes[Math.floor(Math.random() * shapes.length)] as () => string)() },
        flags: settings.searchFeatures,
        seconds: settings.durationS,
        log,
      });
      console.log(`\n${lines.join("\n")}`);
      for (const line of warningLines()) console.log(line);
      log(`done; load average ${load()}`);
      return;
    }
    if (settings.only === "search") {
      const step = settings.featureSteps[0] as number;
      await addFeatures(client, 1, step);
      features = step;
      await startMemoryBaseline();
      const served = await api(server.base, "GET", "/api/client/features", sdk);
      const etag = served.headers.get("etag") ?? "";
      await runOurs("GET client features", features, clientSpec(), true);
      await runOurs("GET client features, 304", features, clientSpec({ "if-none-match": etag }, 304), true);
      await archivedScenario();
      await searchScenario();
      console.log(`\n${formatTable(rows)}\n`);
      console.log(
        "(a) bare node:http answering the same JSON from memory. Search rows have no baseline: their target is absolute.\n\ntargets:",
      );
      for (const line of searchReport()) console.log(line);
      for (const line of warningLines()) console.log(line);
      return;
    }

    /**
     * Unleash at a feature step (BENCH_PEER=1): the step's features added through its admin API,
     * waited for until its client API serves them all, and the ETag of its answer when it answers a
     * matching If-None-Match with a 304 (else its 304 row has no peer).
     */
    const peerAtStep = async (step: number) => {
      if (!peer) return undefined;
      const unleash = peer;
      started = performance.now();
      const from = unleash.features + 1;
      await addPeerFeatures(unleash, from, step);
      log(`peer baseline: features ${from}..${step} added through its admin API in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      let etag = "";
      const served = await peerServes(async () => {
        const res = await fetch(`${unleash.target.base}/api/client/features`, { headers: unleash.client });
        etag = res.headers.get("etag") ?? "";
        return ((await res.json()) as { features: unknown[] }).features.length === step;
      });
      if (!served) throw new Error(`Unleash's client API did not serve the ${step} features within 120 s`);
      const again = await fetch(`${unleash.target.base}/api/client/features`, { headers: { ...unleash.client, "if-none-match": etag } });
      await again.arrayBuffer();
      if (again.status !== 304)
        log(`peer baseline: Unleash answered its own ETag (${etag || "none"}) with ${again.status}: no peer in the 304 row`);
      return { target: unleash.target, etag: again.status === 304 ? etag : undefined };
    };

    /** The last feature count at which the client API rows run: the archived flags are measured there. */
    const lastClientStep = settings.featureSteps.filter((s) => s <= 10_000).at(-1);
    for (const step of settings.featureSteps) {
      started = performance.now();
      for (const db of databases()) await addFeatures(db, features + 1, step);
      log(`features ${features + 1}..${step} added in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      features = step;
      if (!memory) {
        // Baseline (a) answers what the server answered.
        await startMemoryBaseline();
        pgBaseline = await startTarget("baseline (b)", ["--import", "tsx", "baseline-pg.ts"], {
          cwd: HERE,
          env: { DATABASE_URL: databaseUrl, SESSION_SECRET, DATABASE_POOL_SIZE: "10" },
          readyPath: "/health",
        });
        targets.push(pgBaseline);
      }
      await run("GET variants, admin token", variantsOf(admin));
      // Baseline (b) has no client API: these rows pair with baseline (a) only. Past 10,000
      // features the whole payload (every feature) is more than SDK polls are meant to carry.
      if (step <= 10_000) {
        const served = await api(server.base, "GET", "/api/client/features", sdk);
        const etag = served.headers.get("etag") ?? "";
        // Baseline (a) answers the same bytes as the server at this many features.
        await fetch(`${memory?.base}/bench/client-features`, { method: "PUT", body: JSON.stringify({ body: served.text, etag }) });
        const unleash = await peerAtStep(step);
        // Unleash's requests are the same but for its own token (and its own ETag).
        const forPeer = (spec: LoadSpec): LoadSpec => ({ ...spec, headers: { ...spec.headers, ...peer?.client } });
        await run("GET client features", (target) => (target === unleash?.target ? forPeer(clientSpec()) : clientSpec()), [
          memory,
          unleash?.target,
        ]);
        // Each server's poll carries the ETag that server answered; baseline (a)'s is ours.
        const etags = new Map<Target, string>();
        if (before) etags.set(before, (await api(before.base, "GET", "/api/client/features", sdk)).headers.get("etag") ?? "");
        if (unleash?.etag) etags.set(unleash.target, unleash.etag);
        const pollOf = (target: Target) => clientSpec({ "if-none-match": etags.get(target) ?? etag }, 304);
        await run("GET client features, 304", (target) => (target === unleash?.target ? forPeer(pollOf(target)) : pollOf(target)), [
          memory,
          unleash?.etag ? unleash.target : undefined,
        ]);
        // The same with many archived flags in the database beside the served ones (then removed again).
        if (step === lastClientStep) await archivedScenario();
      }
      await run("GET pending, personal token", pendingSpec);
      // Every stream starts with a hydration of the whole scope: measured at the smallest feature count.
      if (step === settings.featureSteps[0]) {
        streamingLines.push(...(await streamingScenario()));
        // The flag the streams saw flipped, as our server left it.
        if (copyClient && settings.streams.length) {
          const flipped = `select enabled from feature_environments where feature_name = $1 and environment_name = 'development'`;
          const { rows } = await client.query<{ enabled: boolean }>(flipped, [featureName(1)]);
          await copyClient.query(
            "update feature_environments set enabled = $2 where feature_name = $1 and environment_name = 'development'",
            [featureName(1), rows[0]?.enabled],
          );
        }
      }
    }
    await searchScenario();
    const tokenRow = rows.filter((r) => r.scenario === "GET variants, admin token").at(-1) as Row;
    const frontendResult = await frontendScenario(memory as Target);
    rows.push(frontendResult.row, ...frontendResult.polls.map((poll) => poll.row));
    const cookieRow = await run("GET variants, session cookie", variantsOf(session));
    await run("POST banners, admin token", bannerSpec);

    // The login storm: the same GET with and without 32 concurrent logins, on the server only.
    const stormGet = variantsOf(admin, settings.stormGetConnections);
    log(
      `login storm: GET variants (${settings.stormGetConnections} connections) without, then with ${settings.stormLogins} concurrent logins`,
    );
    // In turns: without the storm, each baseline (which has no logins to storm), then with the storm
    // (each server without, then each with, in the before/after mode).
    const storms = new Map(
      servers.map((target) => [
        target,
        { quiet: [] as Measured[], stormy: [] as Measured[], logins: 0, seconds: 0, codes: [] as string[] },
      ]),
    );
    const memorySamples: Measured[] = [];
    const pgSamples: Measured[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      const order = roundOrder(servers, round, servers);
      for (const target of order) storms.get(target)?.quiet.push(await measure(target, stormGet, round === 0));
      memorySamples.push(await measure(memory as Target, stormGet, round === 0));
      pgSamples.push(await measure(pgBaseline as Target, stormGet, round === 0));
      for (const target of order) {
        const samples = storms.get(target);
        if (!samples) continue;
        const storm = await startLoginStorm(target.base, stormUsers, PASSWORD, settings.stormLogins);
        await sleep(2_000);
        const loginsBefore = await storm.ok();
        started = performance.now();
        samples.stormy.push(await measure(target, stormGet, false));
        samples.logins += (await storm.ok()) - loginsBefore;
        samples.seconds += (performance.now() - started) / 1000;
        samples.codes.push(await storm.stop());
      }
    }
    const ours = storms.get(server) as { quiet: Measured[]; stormy: Measured[]; logins: number; seconds: number; codes: string[] };
    const { quiet: quietSamples, stormy: stormySamples, codes: stormCodes } = ours;
    const stormRow = `GET variants, ${settings.stormLogins}-login storm`;
    const theirs = before ? storms.get(before) : undefined;
    if (theirs) {
      comparisons.push({ scenario: "GET variants, no storm", features, before: theirs.quiet, after: quietSamples });
      comparisons.push({ scenario: stormRow, features, before: theirs.stormy, after: stormySamples });
    }
    // A change written through this instance, served by a second one on the same database.
    log(`cross-instance: ${settings.crossInstanceChanges} changes written through the server, polled on a second instance`);
    const second = await startTarget("server B", serverStartArgs(SERVER_DIR), { cwd: SERVER_DIR, env: serverEnv, readyPath: "/ready" });
    targets.push(second);
    const crossInstance = await measureCrossInstanceChange(api, server.base, second.base, admin, settings.crossInstanceChanges);
    await stopTarget(second);
    targets.splice(targets.indexOf(second), 1);

    // SDK metrics at 200 a second while SDKs poll: their batched writes must not slow the polls.
    const pollSpec = clientSpec(
      { "if-none-match": (await api(server.base, "GET", "/api/client/features", sdk)).headers.get("etag") ?? "" },
      304,
    );
    const now = new Date().toISOString();
    const metricsBody = JSON.stringify({
      appName: "bench",
      instanceId: "bench-1",
      bucket: { start: now, stop: now, toggles: { [featureName(1)]: { yes: 3, no: 1 } } },
    });
    const metricsSpec: LoadSpec = {
      method: "POST",
      path: () => "/api/client/metrics",
      headers: sdk,
      body: metricsBody,
      connections: 4,
      rate: 200,
    };
    const pollQuiet = await measure(server, pollSpec, true);
    const [pollBusy, metricsLoad] = await Promise.all([
      measure(server, pollSpec, false),
      runLoad(server.base, metricsSpec, settings.durationS),
    ]);
    rows.push({ scenario: "client 304, no metrics", features, server: pollQuiet });
    rows.push({ scenario: "client 304, metrics 200/s", features, server: pollBusy });

    const quiet = medianOf(quietSamples);
    const stormy = medianOf(stormySamples);
    const stormBaselines = { memory: medianOf(memorySamples), pg: medianOf(pgSamples) };
    const loginsPerS = ours.logins / ours.seconds;
    rows.push({ scenario: "GET variants, no storm", features, server: quiet, ...stormBaselines });
    rows.push({ scenario: stormRow, features, server: stormy, ...stormBaselines });

    console.log("");
    console.log(formatTable(rows));
    console.log("");
    console.log(
      `(a) bare node:http answering the same JSON from memory; (b) bare node:http + pg doing the same queries (token or session look-up on every request).`,
    );
    console.log(
      `p50/p99 in ms; RSS is the peak resident memory of the process under load; vs = req/s of the server over the baseline's; each figure the median of ${settings.rounds} rounds.`,
    );
    console.log(
      `login storm rows: ${settings.stormGetConnections} connections; both are paired with the same baselines, measured without the storm.`,
    );
    console.log(`login storm: ${loginsPerS.toFixed(1)} logins/s while measured; statuses by round [${stormCodes.join(" | ")}]`);
    console.log(
      `login storm p99 by round, without -> with: ${quietSamples.map((q, i) => `${q.stats.p99} -> ${stormySamples[i]?.stats.p99}`).join(", ")} ms`,
    );
    console.log("");
    const first = (scenario: string) => rows.find((r) => r.scenario === scenario) as Row;
    const last = (scenario: string) => rows.filter((r) => r.scenario === scenario).at(-1) as Row;
    const t = tokenRow.server.stats;
    const ratioB = t.rps / (tokenRow.pg?.stats.rps ?? Number.NaN);
    const stormRatio = stormy.stats.p99 / quiet.stats.p99;
    const growth = (scenario: string) => {
      const a = first(scenario).server.stats;
      const b = last(scenario).server.stats;
      return { cost: a.rps / b.rps, p50: `${a.p50} -> ${b.p50} ms` };
    };
    const gv = growth("GET variants, admin token");
    const gp = growth("GET pending, personal token");
    const rss = Math.max(...rows.map((r) => r.server.peakRssMb));
    const from = settings.featureSteps[0];
    console.log("targets:");
    console.log(check("GET variants (token) throughput vs baseline (b) >= 1.0x", `${ratioB.toFixed(2)}x`, ratioB >= 1));
    const metricsRatio = pollBusy.stats.p99 / pollQuiet.stats.p99;
    console.log(
      check(
        "metrics at 200/s move the client poll's p99 by < 1.5x",
        `${pollQuiet.stats.p99} -> ${pollBusy.stats.p99} ms = ${metricsRatio.toFixed(2)}x (${metricsLoad.rps.toFixed(0)} metrics/s, ${metricsLoad.failures} failed)`,
        metricsRatio < 1.5,
      ),
    );
    for (const [scenario, floor] of [
      ["GET client features, 304", 0.7],
      ["GET client features", 0.5],
    ] as const) {
      for (const row of rows.filter((r) => r.scenario === scenario)) {
        const ratio = row.server.stats.rps / (row.memory?.stats.rps ?? Number.NaN);
        console.log(check(`${scenario} at ${row.features} features vs baseline (a) >= ${floor}x`, `${ratio.toFixed(2)}x`, ratio >= floor));
        console.log(check(`${scenario} at ${row.features} features p99 < 20 ms`, `${row.server.stats.p99} ms`, row.server.stats.p99 < 20));
      }
    }
    for (const row of rows.filter((r) => r.peer && r.scenario !== "GET frontend API")) {
      const peerRps = row.peer?.stats.rps ?? Number.NaN;
      console.log(
        `        ${row.scenario} at ${row.features} features vs Unleash 8.2: ${row.server.stats.rps.toFixed(0)} against ${peerRps.toFixed(0)} req/s = ${(row.server.stats.rps / peerRps).toFixed(2)}x`,
      );
    }
    const crossMs = crossInstance.ms;
    const crossMax = crossMs.at(-1) ?? Number.NaN;
    console.log(
      check(
        "a change written on one instance is served by another's client API within 1 s",
        `p50 ${(crossMs[Math.floor(crossMs.length / 2)] ?? Number.NaN).toFixed(1)} ms, max ${crossMax.toFixed(1)} ms (${crossMs.length} changes)`,
        crossMax < 1_000,
      ),
    );
    console.log(check(`GET variants (token) p99 < 20 ms at ${settings.connections} connections`, `${t.p99} ms`, t.p99 < 20));
    for (const line of frontendReport(frontendResult)) console.log(line);
    const cookieRatio = cookieRow.server.stats.rps / t.rps;
    console.log(check("session-cookie GET within 15% of token GET", `${cookieRatio.toFixed(2)}x`, cookieRatio >= 0.85));
    console.log(
      check(
        "login storm moves the GET's p99 by < 2x",
        `${quiet.stats.p99} -> ${stormy.stats.p99} ms = ${stormRatio.toFixed(2)}x`,
        stormRatio < 2,
      ),
    );
    console.log(
      check(`GET variants cost at ${features} vs ${from} features <= 1.5x`, `${gv.cost.toFixed(2)}x (p50 ${gv.p50})`, gv.cost <= 1.5),
    );
    console.log(
      check(`GET pending cost at ${features} vs ${from} features <= 1.5x`, `${gp.cost.toFixed(2)}x (p50 ${gp.p50})`, gp.cost <= 1.5),
    );
    console.log(check("server RSS under load < 200 MB", `${rss.toFixed(0)} MB`, rss < 200));
    for (const line of searchReport()) console.log(line);
    if (streamingLines.length) console.log(`${streamingLines.join("\n")}\n`);
    // Its own server, on PGlite, while ours idles: last, so that it disturbs no other figure.
    console.log(`${(await memoryScenario()).join("\n")}\n`);
    for (const line of warningLines()) console.log(line);
    if (theirs) {
      const notes = [
        `login storm: ${(theirs.logins / theirs.seconds).toFixed(1)} logins/s before, ${loginsPerS.toFixed(1)} after, while measured; before's statuses by round [${theirs.codes.join(" | ")}]`,
      ];
      const report = { rounds: settings.rounds, ...labels, notes, ...(onCopy ? { copyWithout: newer } : {}) };
      console.log(`\n${formatBeforeAfter(comparisons, report).join("\n")}`);
    }
    log(`done; load average ${load()}`);
  } finally {
    for (const target of targets.reverse()) await stopTarget(target);
    await peer?.stop();
    await client.end();
    await copyClient?.end();
    // Dropped as createTestDb's close drops ours.
    if (copyMade) await onPostgres((admin) => admin.query(`drop database if exists "${copyName}" with (force)`));
    await testDb.close();
  }
}

const peerRun = settings.peer ? rerunOnPeerNode(log) : undefined;
if (peerRun !== undefined) process.exit(peerRun);
main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
