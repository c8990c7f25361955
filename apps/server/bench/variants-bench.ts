// GET variants benchmark (issue 5): throughput and p50/p99 of
// GET /api/admin/projects/{p}/features/{f}/environments/{e}/variants on a project with 10,000
// features, with an admin token and with a session cookie, 50 connections, 10 s each.
// Not a test. Run: cd apps/server && node --import tsx bench/variants-bench.ts
// Needs Postgres on 127.0.0.1:5432 (user postgres, trust auth) or BENCH_DATABASE_URL; it works on a
// fresh database of its own, dropped at the end. All traffic stays on 127.0.0.1.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createDb } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { featureEnvironmentVariants, parseVariants } from "@vexil/services";
import autocannon from "autocannon";
import { CompiledQuery, sql } from "kysely";
import { request } from "undici";

const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const FEATURES = 10_000;
const PROJECT = "bench";
const CONNECTIONS = 50;
const WARMUP_S = 3;
const PHASE_S = 10;
const ADMIN_TOKEN = `*:*.${randomBytes(24).toString("hex")}`;
const PASSWORD = "bench-password-1234";

const featureName = (i: number) => `feature-${String(i).padStart(5, "0")}`;
const variantsPath = (i: number, environment: string) =>
  `/api/admin/projects/${PROJECT}/features/${featureName(i)}/environments/${environment}/variants`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function call(base: string, method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(base + path, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

async function waitReady(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited early with code ${server.exitCode}`);
    try {
      if ((await call(base, "GET", "/ready")).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error("server not ready after 30 s");
}

/** 10,000 features in one project, each with variants in production and development. */
async function generate(databaseUrl: string): Promise<void> {
  const { db, close } = createDb({ databaseUrl, poolSize: 2 });
  try {
    await db.insertInto("projects").values({ id: PROJECT, name: "Benchmark" }).execute();
    await db
      .insertInto("project_environments")
      .values(["development", "production"].map((environment_name) => ({ project_id: PROJECT, environment_name })))
      .execute();
    const production = JSON.stringify(
      parseVariants([
        { name: "control", weightType: "fix", weight: 500 },
        { name: "blue", payload: { type: "json", value: '{"color":"blue"}' } },
        { name: "green", stickiness: "userId", overrides: [{ contextName: "userId", values: ["1", "2", "3"] }] },
      ]),
    );
    const development = JSON.stringify(parseVariants([{ name: "on" }, { name: "off" }]));
    for (let start = 0; start < FEATURES; start += 1_000) {
      const names = Array.from({ length: 1_000 }, (_, k) => featureName(start + k));
      await db.insertInto("features").values(names.map((name) => ({ name, project_id: PROJECT }))).execute();
      await db
        .insertInto("feature_environments")
        .values(
          names.flatMap((feature_name) => [
            { feature_name, environment_name: "production", variants: production },
            { feature_name, environment_name: "development", variants: development },
          ]),
        )
        .execute();
    }
    await sql`analyze`.execute(db);
  } finally {
    await close();
  }
}

/** The plans of the queries a GET variants runs, to show that they are index look-ups only. */
async function explainRead(databaseUrl: string): Promise<string[]> {
  const { db, close } = createDb({ databaseUrl, poolSize: 1 });
  try {
    const queries: CompiledQuery[] = [];
    // A plugin sees every query the service builds; compiling it gives the SQL to EXPLAIN.
    const spy = db.withPlugin({
      transformQuery: ({ node, queryId }) => {
        queries.push(db.getExecutor().compileQuery(node, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    await featureEnvironmentVariants(spy, { projectId: PROJECT, featureName: featureName(4_242), environment: "production" });
    const lines = [`queries per GET variants: ${queries.length}`];
    for (const q of queries) {
      const plan = await db.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${q.sql}`, [...q.parameters]),
      );
      lines.push(...plan.rows.map((r) => `  ${r["QUERY PLAN"]}`));
    }
    return lines;
  } finally {
    await close();
  }
}

interface Stats {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  codes: string;
}

const randomVariantsPath = () =>
  variantsPath(Math.floor(Math.random() * FEATURES), Math.random() < 0.5 ? "production" : "development");

async function load(base: string, seconds: number, headers: Record<string, string>, nextPath = randomVariantsPath): Promise<Stats> {
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    // Every request reads a random feature, so no single row stays hot.
    requests: [
      {
        method: "GET",
        setupRequest: (req: Record<string, unknown>) => ({ ...req, path: nextPath() }),
      },
    ],
  });
  const codes = Object.entries(r.statusCodeStats ?? {})
    .map(([code, s]) => `${code}:${(s as { count: number }).count}`)
    .join(" ");
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, codes };
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  if (!(await Promise.race([exited.then(() => true), sleep(8_000).then(() => false)]))) {
    server.kill("SIGKILL");
    await exited;
  }
}

async function main(): Promise<void> {
  const testDb = await createTestDb({ TEST_DATABASE_URL: PG_URL });
  const databaseUrl = testDb.databaseUrl as string;
  let server: ChildProcess | undefined;
  const serverLog: string[] = [];
  try {
    const generating = performance.now();
    await generate(databaseUrl);
    console.log(`generated ${FEATURES} features with variants in ${((performance.now() - generating) / 1000).toFixed(1)} s`);
    for (const line of await explainRead(databaseUrl)) console.log(line);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
      cwd: new URL("..", import.meta.url),
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: "warn",
        LOG_PRETTY: "false",
        SESSION_SECRET: randomBytes(32).toString("hex"),
        INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
        ADMIN_PASSWORD: randomBytes(16).toString("hex"),
        SHUTDOWN_GRACE_MS: "3000",
      },
    });
    for (const stream of [server.stdout, server.stderr]) {
      stream?.on("data", (chunk: Buffer) => serverLog.push(...chunk.toString().split("\n").filter(Boolean)));
    }
    await waitReady(base, server);

    const admin = { authorization: ADMIN_TOKEN };
    const created = await call(base, "POST", "/api/admin/user-admin", { username: "bench-viewer", password: PASSWORD, rootRole: 3 }, admin);
    if (created.status !== 201) throw new Error(`creating the user: ${created.status} ${created.text}`);
    const login = await call(base, "POST", "/auth/simple/login", { username: "bench-viewer", password: PASSWORD });
    const setCookie = login.headers["set-cookie"];
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(";", 1)[0];
    if (login.status !== 200 || !cookie) throw new Error(`login: ${login.status} ${login.text}`);
    const session = { cookie };

    for (const headers of [admin, session]) {
      const probe = await call(base, "GET", variantsPath(1, "production"), undefined, headers);
      if (probe.status !== 200) throw new Error(`probe: ${probe.status} ${probe.text}`);
    }
    console.log(`server pid ${server.pid} on ${base}; warming up ${WARMUP_S} s`);
    await load(base, WARMUP_S, admin);

    const results: [string, Stats][] = [];
    for (const [name, headers] of [["admin token", admin], ["session cookie", session]] as const) {
      console.log(`GET variants of random features, ${name}, ${CONNECTIONS} connections, ${PHASE_S} s`);
      results.push([name, await load(base, PHASE_S, headers)]);
    }
    // For scale: the cheapest authenticated read, so that what the variants path adds shows.
    console.log(`baseline: GET /api/admin/environments, admin token, ${CONNECTIONS} connections, ${PHASE_S} s`);
    results.push(["baseline (envs)", await load(base, PHASE_S, admin, () => "/api/admin/environments")]);

    console.log("");
    console.log(`${"".padEnd(16)}${"req/s".padStart(10)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"total".padStart(9)}`);
    for (const [name, s] of results) {
      console.log(
        `${name.padEnd(16)}${s.rps.toFixed(0).padStart(10)}${String(s.p50).padStart(8)}${String(s.p99).padStart(8)}${String(s.total).padStart(9)}  non2xx=${s.non2xx} errors=${s.errors} [${s.codes}]`,
      );
    }
    const bad = serverLog.filter((line) => /"level":(40|50|60)/.test(line) || !line.startsWith("{"));
    console.log(`server log lines at warn or above: ${bad.length}`);
    for (const line of bad.slice(0, 10)) console.log(`  ${line.slice(0, 300)}`);
  } finally {
    if (server) await stopServer(server);
    await testDb.close();
    console.log("server stopped; database dropped");
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
