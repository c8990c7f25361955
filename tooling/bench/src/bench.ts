// The benchmark suite (issue 8). Not a test: `pnpm bench` at the root runs it. It makes a database
// of its own on a real Postgres (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local one),
// starts the server and two baselines as child processes, drives each with autocannon on
// 127.0.0.1 only, prints one table, and drops the database. Knobs: see settings.ts.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDb } from "@vexil/db/testing";
import pg from "pg";
import { measureCrossInstanceChange } from "./cross-instance-change.ts";
import { addFeatures, CALLER_PENDING, featureName, PROJECT, seedChangeRequests, seedProjects } from "./dataset.ts";
import { type FrontendResult, runFrontendScenario } from "./frontend-scenario.ts";
import { type LoadSpec, runLoad } from "./load.ts";
import { startLoginStorm } from "./login-storm.ts";
import { startTarget, stopTarget, type Target, withPeakRss } from "./processes.ts";
import { serverStartArgs } from "./server-start-args.ts";
import { check, formatTable, type Measured, medianOf, type Row } from "./report.ts";
import { loadBenchSettings } from "./settings.ts";
import { formatStreamingTable, measureStreams, type StreamingResult } from "./streams.ts";

const settings = loadBenchSettings();
const PASSWORD = "bench-password-1234";
const STORM_USERS = 40;
const ADMIN_TOKEN = `*:*.${randomBytes(24).toString("hex")}`;
const SESSION_SECRET = randomBytes(32).toString("hex");
const SERVER_DIR = settings.serverDir ?? new URL("../../../apps/server/", import.meta.url);
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
  const { result, peakRssMb } = await withPeakRss(target.child.pid, () => runLoad(target.base, spec, settings.durationS));
  return { stats: result, peakRssMb };
}

/**
 * The figure of each target under `spec`: `rounds` measurements taken in turns (server, then each
 * baseline, then again), so that a slow spell of a shared machine falls on all of them alike,
 * reduced to their medians.
 */
async function measureInTurns(targets: Target[], spec: LoadSpec): Promise<Measured[]> {
  const samples = targets.map((): Measured[] => []);
  for (let round = 0; round < settings.rounds; round++) {
    for (const [i, target] of targets.entries()) samples[i]?.push(await measure(target, spec, round === 0));
  }
  return samples.map(medianOf);
}

/** The frontend scenario's lines under the table, and its target. */
function frontendReport({ row, sdkSetsPerS }: FrontendResult): string[] {
  const rps = row.server.stats.rps;
  const ratio = rps / (row.memory?.stats.rps ?? Number.NaN);
  return [
    `frontend API: ${rps.toFixed(0)} evaluations of the ${row.features}-flag set/s; (c) the SDK (unleash-client) in one process: ${sdkSetsPerS.toFixed(0)}/s = ${(rps / sdkSetsPerS).toFixed(2)}x of (c)`,
    check(`GET frontend API at ${row.features} flags vs baseline (a) >= 0.5x`, `${ratio.toFixed(2)}x`, ratio >= 0.5),
  ];
}

async function main(): Promise<void> {
  log(
    `node ${process.version}, ${cpus().length} cores, load average ${load()}; each figure the median of ${settings.rounds} measurements of ${settings.durationS} s, after ${settings.warmupS} s of warm-up`,
  );
  const testDb = await createTestDb({ TEST_DATABASE_URL: settings.postgresUrl });
  const databaseUrl = testDb.databaseUrl as string;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const targets: Target[] = [];
  try {
    // The server runs as `pnpm start` runs it: built, as plain JavaScript, with its node flags.
    // (Checkouts from before the bundle, given as BENCH_SERVER_DIR, start from source instead.)
    if (existsSync(new URL("scripts/build.mjs", SERVER_DIR)))
      execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: SERVER_DIR, stdio: "inherit" });
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
    const server = await startTarget(
      "server",
      [...(settings.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${settings.cpuProfDir}`] : []), ...serverStartArgs(SERVER_DIR)],
      { cwd: SERVER_DIR, env: serverEnv, readyPath: "/ready" },
    );
    targets.push(server);
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
    const pat = await api(server.base, "POST", "/api/admin/user/tokens", session, { description: "bench", expiresAt: null });
    const personal = { authorization: pat.json.secret as string };

    const frontendScenario = (memory: Target) =>
      runFrontendScenario({
        server,
        memory,
        client,
        admin,
        flags: settings.frontendFlags,
        connections: settings.connections,
        rounds: settings.rounds,
        durationS: settings.durationS,
        warmupS: settings.warmupS,
        measureInTurns,
        api,
        log,
      });
    if (settings.only === "frontend") {
      const bodiesFile = join(tmpdir(), `vexil-bench-bodies-${process.pid}.json`);
      writeFileSync(bodiesFile, "{}");
      const memory = await startTarget("baseline (a)", ["--import", "tsx", "baseline-memory.ts"], {
        cwd: HERE,
        env: { BENCH_BODIES: bodiesFile },
        readyPath: "/health",
      });
      targets.push(memory);
      const result = await frontendScenario(memory);
      console.log(`\n${formatTable([result.row])}\n`);
      console.log(
        "(a) bare node:http answering the same JSON from memory; (c) the SDK evaluating the same flags in process, context after context.\n\ntargets:",
      );
      for (const line of frontendReport(result)) console.log(line);
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
        out.push(check(`${r.streams} streams: RSS grows < 20 KB a stream`, `${r.kbPerStream.toFixed(1)} KB`, r.kbPerStream < 20));
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
      const warnings = server.output.filter((line) => /"level":(40|50|60)/.test(line) && !/SESSION_SECRET|ADMIN_PASSWORD/.test(line));
      console.log(`server log lines at warn or above: ${warnings.length}`);
      for (const line of warnings.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
      log(`done; load average ${load()}`);
      return;
    }

    const streamingLines: string[] = [];
    let memory: Target | undefined;
    let pgBaseline: Target | undefined;
    const rows: Row[] = [];
    const run = async (scenario: string, spec: LoadSpec, against: (Target | undefined)[] = [server, memory, pgBaseline]) => {
      log(`${scenario} at ${features} features`);
      const [s, m, p] = await measureInTurns(
        against.filter((t): t is Target => t !== undefined),
        spec,
      );
      const row: Row = { scenario, features, server: s as Measured };
      if (m) row.memory = m;
      if (p) row.pg = p;
      rows.push(row);
      return row;
    };

    for (const step of settings.featureSteps) {
      started = performance.now();
      await addFeatures(client, features + 1, step);
      log(`features ${features + 1}..${step} added in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      features = step;
      if (!memory) {
        // Baseline (a) answers what the server answered.
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
        await run("GET client features", clientSpec(), [server, memory]);
        await run("GET client features, 304", clientSpec({ "if-none-match": etag }, 304), [server, memory]);
      }
      await run("GET pending, personal token", pendingSpec);
      // Every stream starts with a hydration of the whole scope: measured at the smallest feature count.
      if (step === settings.featureSteps[0]) streamingLines.push(...(await streamingScenario()));
    }
    const tokenRow = rows.filter((r) => r.scenario === "GET variants, admin token").at(-1) as Row;
    const frontendResult = await frontendScenario(memory as Target);
    rows.push(frontendResult.row);
    const cookieRow = await run("GET variants, session cookie", variantsOf(session));
    await run("POST banners, admin token", bannerSpec);

    // The login storm: the same GET with and without 32 concurrent logins, on the server only.
    const stormGet = variantsOf(admin, settings.stormGetConnections);
    log(
      `login storm: GET variants (${settings.stormGetConnections} connections) without, then with ${settings.stormLogins} concurrent logins`,
    );
    // In turns: without the storm, each baseline (which has no logins to storm), then with the storm.
    const quietSamples: Measured[] = [];
    const stormySamples: Measured[] = [];
    const memorySamples: Measured[] = [];
    const pgSamples: Measured[] = [];
    let logins = 0;
    let loginSeconds = 0;
    const stormCodes: string[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      quietSamples.push(await measure(server, stormGet, round === 0));
      memorySamples.push(await measure(memory as Target, stormGet, round === 0));
      pgSamples.push(await measure(pgBaseline as Target, stormGet, round === 0));
      const storm = await startLoginStorm(server.base, stormUsers, PASSWORD, settings.stormLogins);
      await sleep(2_000);
      const loginsBefore = await storm.ok();
      started = performance.now();
      stormySamples.push(await measure(server, stormGet, false));
      logins += (await storm.ok()) - loginsBefore;
      loginSeconds += (performance.now() - started) / 1000;
      stormCodes.push(await storm.stop());
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
    const loginsPerS = logins / loginSeconds;
    rows.push({ scenario: "GET variants, no storm", features, server: quiet, ...stormBaselines });
    rows.push({ scenario: `GET variants, ${settings.stormLogins}-login storm`, features, server: stormy, ...stormBaselines });

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
    if (streamingLines.length) console.log(`${streamingLines.join("\n")}\n`);
    const warnings = server.output.filter((line) => /"level":(40|50|60)/.test(line) && !/SESSION_SECRET|ADMIN_PASSWORD/.test(line));
    console.log(`server log lines at warn or above: ${warnings.length}`);
    for (const line of warnings.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
    log(`done; load average ${load()}`);
  } finally {
    for (const target of targets.reverse()) await stopTarget(target);
    await client.end();
    await testDb.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
