// Login-storm benchmark (issue 3): logins a second, and the p99 of a cheap authenticated GET with
// and without a concurrent login storm. Not a test. Run: cd apps/server && pnpm bench:login
// Needs Postgres on 127.0.0.1:5432 (user postgres, trust auth); all traffic stays on 127.0.0.1.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDb } from "@vexil/db/testing";
import autocannon from "autocannon";
import { Agent, request } from "undici";

const PG_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const USERS = 40;
const PASSWORD = "bench-password-1234";
const GET_PATH = "/api/admin/environments";
const GET_CONNECTIONS = 10;
const WARMUP_S = 3;
const PHASE_S = 10;
const STORM_LOOPS = 32;
const STORM_RAMP_MS = 2_000;

const ADMIN_TOKEN = `*:*.${randomBytes(24).toString("hex")}`;
const agent = new Agent({ connections: STORM_LOOPS + 8, headersTimeout: 15_000, bodyTimeout: 15_000 });

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
    dispatcher: agent,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text };
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

interface GetStats { rps: number; p50: number; p99: number; total: number; non2xx: number; errors: number; timeouts: number; codes: string }

async function getLoad(base: string, seconds: number): Promise<GetStats> {
  const r = await autocannon({
    url: base + GET_PATH,
    connections: GET_CONNECTIONS,
    duration: seconds,
    headers: { authorization: ADMIN_TOKEN },
  });
  const codes = Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => `${code}:${(s as { count: number }).count}`).join(" ");
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, codes };
}

/** 32 loops of correct logins, each from its own forwarded address; runs until stop() is called. */
function startStorm(base: string, usernames: string[]) {
  const codes = new Map<string, number>();
  let ok = 0;
  let stopping = false;
  const loop = async (i: number) => {
    for (let n = 0; !stopping; n++) {
      const username = usernames[(i + n * STORM_LOOPS) % usernames.length] as string;
      const headers = { "x-forwarded-for": `10.0.${i}.${(n % 250) + 1}` };
      let code: string;
      try {
        code = String((await call(base, "POST", "/auth/simple/login", { username, password: PASSWORD }, headers)).status);
      } catch (error) {
        code = `error(${(error as Error).name})`;
        await sleep(100);
      }
      if (code === "200") ok++;
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
  };
  const loops = Array.from({ length: STORM_LOOPS }, (_, i) => loop(i));
  return {
    ok: () => ok,
    codes: () => [...codes].map(([c, k]) => `${c}:${k}`).join(" "),
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  if (!(await Promise.race([exited.then(() => true), sleep(8_000).then(() => false)]))) {
    console.log("server did not stop within 8 s of SIGTERM; sending SIGKILL");
    server.kill("SIGKILL");
    await exited;
  }
}

async function main(): Promise<void> {
  const db = await createTestDb({ TEST_DATABASE_URL: PG_URL });
  let server: ChildProcess | undefined;
  const serverLog: string[] = [];
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
      cwd: new URL("..", import.meta.url),
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: db.databaseUrl,
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: "warn",
        LOG_PRETTY: "false",
        SESSION_SECRET: randomBytes(32).toString("hex"),
        INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
        TRUST_PROXY: "127.0.0.1",
        ADMIN_PASSWORD: randomBytes(16).toString("hex"), // only to silence the default-password warning
        SHUTDOWN_GRACE_MS: "3000",
      },
    });
    for (const stream of [server.stdout, server.stderr]) {
      stream?.on("data", (chunk: Buffer) => serverLog.push(...chunk.toString().split("\n").filter(Boolean)));
    }
    await waitReady(base, server);
    console.log(`server pid ${server.pid} on ${base}, database ${db.databaseUrl}`);

    const usernames = Array.from({ length: USERS }, (_, i) => `bench-user-${i + 1}`);
    for (const username of usernames) {
      const res = await call(base, "POST", "/api/admin/user-admin", { username, password: PASSWORD, rootRole: 3 }, { authorization: ADMIN_TOKEN });
      if (res.status !== 201) throw new Error(`creating ${username}: ${res.status} ${res.text}`);
    }
    const probe = await call(base, "GET", GET_PATH, undefined, { authorization: ADMIN_TOKEN });
    if (probe.status !== 200) throw new Error(`GET ${GET_PATH}: ${probe.status} ${probe.text}`);
    console.log(`created ${USERS} users; warming up ${WARMUP_S} s`);
    await getLoad(base, WARMUP_S);

    console.log(`phase A: GET ${GET_PATH}, ${GET_CONNECTIONS} connections, ${PHASE_S} s`);
    const baseline = await getLoad(base, PHASE_S);

    console.log(`phase B: same GET load + ${STORM_LOOPS} login loops (${STORM_RAMP_MS / 1000} s ramp first)`);
    const storm = startStorm(base, usernames);
    await sleep(STORM_RAMP_MS);
    const loginsBefore = storm.ok();
    const started = performance.now();
    const stormed = await getLoad(base, PHASE_S);
    const loginsPerSec = (storm.ok() - loginsBefore) / ((performance.now() - started) / 1000);
    await storm.stop();

    const ratio = stormed.p99 / baseline.p99;
    const row = (name: string, s: GetStats) =>
      `${name.padEnd(16)}${String(s.p50).padStart(8)}${String(s.p99).padStart(8)}${s.rps.toFixed(0).padStart(10)}${String(s.total).padStart(9)}  non2xx=${s.non2xx} errors=${s.errors} timeouts=${s.timeouts} [${s.codes}]`;
    console.log("");
    console.log(`GET ${GET_PATH}     p50 ms  p99 ms     req/s    total`);
    console.log(row("without storm", baseline));
    console.log(row("with storm", stormed));
    console.log(`logins/s during storm: ${loginsPerSec.toFixed(1)}   login statuses (whole storm): [${storm.codes()}]`);
    console.log(`p99 with/without storm: ${ratio.toFixed(2)}x (target < 2x) -> ${ratio < 2 ? "OK" : "TARGET MISSED"}`);
    const bad = serverLog.filter((line) => /"level":(40|50|60)/.test(line) || !line.startsWith("{"));
    console.log(`server log lines at warn or above: ${bad.length}`);
    for (const line of bad.slice(0, 10)) console.log(`  ${line.slice(0, 300)}`);
  } finally {
    if (server) await stopServer(server);
    await agent.close();
    await db.close();
    console.log(`server stopped (exit ${server?.exitCode ?? server?.signalCode}); database dropped`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
