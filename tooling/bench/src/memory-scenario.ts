import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { FRONTEND_CONSTRAINTS, FRONTEND_QUERY, FRONTEND_VARIANTS, frontendFlagName } from "./frontend-flags.ts";
import { type LoadSpec, type LoadStats, runLoad } from "./load.ts";
import { rssMb, startTarget, stopTarget, withPeakRss } from "./processes.ts";
import { check } from "./report.ts";
import { serverStartArgs } from "./server-start-args.ts";

/** The targets for the embedded server's resident memory. */
const IDLE_TARGET_MB = 200;
const LOAD_TARGET_MB = 250;
const PROJECT = "default";
const ENVIRONMENT = "development";
const IMPORT_PART = 200;

export interface MemoryScenarioOptions {
  serverDir: URL;
  flags: number;
  connections: number;
  durationS: number;
  rounds: number;
  /** How long the server is left alone after /ready before its idle memory is read. */
  idleS: number;
  log(line: string): void;
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A personal access token of the first start's `admin`, made through a console login. */
async function personalAccessToken(base: string, password: string): Promise<string> {
  const login = await fetch(`${base}/auth/simple/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password }),
  });
  await login.arrayBuffer();
  if (login.status >= 300) throw new Error(`POST /auth/simple/login: ${login.status}`);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";", 1)[0] as string;
  const token = await call(
    base,
    "POST",
    "/api/admin/user/tokens",
    { cookie },
    { description: "bench-memory", expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
  );
  return token.secret as string;
}

/** The frontend scenario's flags (docs of frontend-flags.ts), imported in one call as Unleash's export document. */
function flagDocument(from: number, count: number) {
  const names = Array.from({ length: count }, (_, i) => frontendFlagName(from + i));
  return {
    project: PROJECT,
    environment: ENVIRONMENT,
    data: {
      features: names.map((name) => ({ name, project: PROJECT })),
      featureStrategies: names.map((name, i) => ({
        name: "flexibleRollout",
        featureName: name,
        parameters: { rollout: "50", stickiness: "userId", groupId: name },
        constraints: (from + i) % 2 === 0 ? FRONTEND_CONSTRAINTS : [],
      })),
      featureEnvironments: names.map((name) => ({
        name,
        featureName: name,
        environment: ENVIRONMENT,
        enabled: true,
        variants: FRONTEND_VARIANTS,
      })),
      tagTypes: [],
    },
  };
}

/**
 * The embedded server's resident memory (BENCH_ONLY=memory): the built server started as `pnpm
 * start` starts it, on PGlite (no DATABASE_URL) in a new DATA_DIR, read from /proc (VmRSS) as the
 * bench reads every server's; idle `idleS` after /ready, then its peak while the client API (full
 * and 304) and the frontend API answer at `flags` flags with a few admin writes going on.
 */
export async function runMemoryScenario(o: MemoryScenarioOptions): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "vexil-bench-embedded-"));
  const adminToken = `*:*.${randomBytes(24).toString("hex")}`;
  const adminPassword = randomBytes(16).toString("hex");
  const args = serverStartArgs(o.serverDir);
  const server = await startTarget("server (embedded)", args, {
    cwd: o.serverDir,
    env: {
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      LOG_PRETTY: "false",
      SESSION_SECRET: randomBytes(32).toString("hex"),
      INIT_ADMIN_API_TOKENS: adminToken,
      ADMIN_PASSWORD: adminPassword,
      SHUTDOWN_GRACE_MS: "3000",
    },
    readyPath: "/ready",
  });
  const pid = server.child.pid as number;
  try {
    o.log(`embedded memory: ready; left idle for ${o.idleS} s`);
    await sleep(o.idleS * 1000);
    const idleMb = rssMb(pid);

    const admin = { authorization: adminToken };
    let started = performance.now();
    // An admin token may not import (Unleash's 400): the admin's personal access token does.
    const personal = { authorization: await personalAccessToken(server.base, adminPassword) };
    // In parts: an import's body is limited to 256 KB (docs/limits.md).
    for (let from = 1; from <= o.flags; from += IMPORT_PART)
      await call(
        server.base,
        "POST",
        "/api/admin/features-batch/import",
        personal,
        flagDocument(from, Math.min(IMPORT_PART, o.flags - from + 1)),
      );
    const importS = (performance.now() - started) / 1000;
    const scope = { projects: [PROJECT], environment: ENVIRONMENT };
    const sdk = await call(server.base, "POST", "/api/admin/api-tokens", admin, {
      tokenName: "bench-memory-sdk",
      type: "client",
      ...scope,
    });
    const frontend = await call(server.base, "POST", "/api/admin/api-tokens", admin, {
      tokenName: "bench-memory-frontend",
      type: "frontend",
      ...scope,
    });
    const clientHeaders = { authorization: sdk.secret as string, "accept-encoding": "gzip,deflate" };
    const first = await fetch(`${server.base}/api/client/features`, { headers: clientHeaders });
    await first.arrayBuffer();
    const etag = first.headers.get("etag") ?? "";
    const specs: [string, LoadSpec][] = [
      ["GET client features", { method: "GET", path: () => "/api/client/features", headers: clientHeaders, connections: o.connections }],
      [
        "GET client features, 304",
        {
          method: "GET",
          path: () => "/api/client/features",
          headers: { ...clientHeaders, "if-none-match": etag },
          connections: o.connections,
          expectStatus: 304,
        },
      ],
      [
        "GET frontend API",
        {
          method: "GET",
          path: () => `/api/frontend?userId=u${Math.floor(Math.random() * 1e9)}&${FRONTEND_QUERY}`,
          headers: { authorization: frontend.secret as string },
          connections: o.connections,
        },
      ],
    ];
    o.log(
      `embedded memory: idle ${idleMb.toFixed(0)} MB; ${o.flags} flags imported in ${importS.toFixed(1)} s; load for ${o.rounds} rounds`,
    );

    // A few admin writes all along: a flag switched on and off, four times a second.
    let writing = true;
    let writes = 0;
    const flip = `/api/admin/projects/${PROJECT}/features/${frontendFlagName(1)}/environments/${ENVIRONMENT}`;
    const writer = (async () => {
      while (writing) {
        await call(server.base, "POST", `${flip}/${writes % 2 === 0 ? "off" : "on"}`, admin);
        writes++;
        await sleep(250);
      }
    })();
    started = performance.now();
    const results: [string, LoadStats][] = [];
    let peakMb: number;
    try {
      ({ peakRssMb: peakMb } = await withPeakRss(pid, async () => {
        for (let round = 0; round < o.rounds; round++)
          for (const [name, spec] of specs) results.push([name, await runLoad(server.base, spec, o.durationS)]);
      }));
    } finally {
      writing = false;
      await writer;
    }
    const loadS = (performance.now() - started) / 1000;
    const afterMb = rssMb(pid);
    const failures = results.reduce((sum, [, stats]) => sum + stats.failures, 0);
    const byScenario = specs.map(([name]) => {
      const rps = results.filter(([n]) => n === name).map(([, s]) => s.rps.toFixed(0));
      return `${name} ${rps.join("/")} req/s`;
    });
    return [
      `embedded memory: node ${args.join(" ")} on PGlite in a new DATA_DIR; VmRSS of the server process.`,
      `  idle ${o.idleS} s after /ready: ${idleMb.toFixed(0)} MB`,
      `  under load (${o.connections} connections, ${o.flags} flags, ${o.rounds} rounds of ${o.durationS} s each: ${byScenario.join(", ")}; ${writes} admin writes in ${loadS.toFixed(0)} s${failures ? `; ${failures} non-2xx or errors (!)` : ""}): peak ${peakMb.toFixed(0)} MB, at its end ${afterMb.toFixed(0)} MB`,
      "",
      "embedded memory targets:",
      check(`embedded server idle < ${IDLE_TARGET_MB} MB`, `${idleMb.toFixed(0)} MB`, idleMb < IDLE_TARGET_MB),
      check(
        `embedded server under the bench's load < ${LOAD_TARGET_MB} MB`,
        `${peakMb.toFixed(0)} MB`,
        peakMb < LOAD_TARGET_MB && failures === 0,
      ),
    ];
  } finally {
    await stopTarget(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
