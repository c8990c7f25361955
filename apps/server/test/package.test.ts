import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { npmCafileArgs } from "./support/npm-cafile.ts";
import { sessionCookieFrom } from "./support/principals.ts";
import { startLine } from "./support/server-process.ts";
import { callUrl } from "./support/test-server.ts";

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
// Kept between runs (gitignored): npm's cache, and the folder of the last fresh install per set of
// dependencies, from which later runs start instead of an empty folder.
const CACHE_DIR = join(SERVER_DIR, ".package-test");
const NPM_CACHE = join(CACHE_DIR, "npm-cache");
const INSTALL_TIMEOUT_MS = 600_000;
const START_DEADLINE_MS = 120_000;

/** A command of the installed package, run as a person runs it: from its folder, with only PATH and HOME (and what is given). */
function vexilEnv(home: string, env: Record<string, string>): Record<string, string> {
  // The Node running the tests first on PATH, so that the bin's `#!/usr/bin/env node` is that Node (CI runs Node 20 and 24).
  return { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`, HOME: home, LOG_PRETTY: "false", ...env };
}

test("the packed server installs with npm outside the repository, and `vexil serve` answers the README's first session on the embedded database", async () => {
  const work = mkdtempSync(join(tmpdir(), "vexil-package-test-"));
  let server: ChildProcess | undefined;
  const lines: string[] = [];
  try {
    const [home, app, data] = ["home", "app", "data"].map((name) => join(work, name)) as [string, string, string];
    for (const dir of [home, app]) mkdirSync(dir);

    // Seconds each step took, printed for CI's time budget.
    const timings: Record<string, number> = {};
    let since = performance.now();
    const lap = (step: string) => {
      timings[step] = Math.round((performance.now() - since) / 100) / 10;
      since = performance.now();
    };

    // Pack: the bundle, the command, the console; no TypeScript source.
    const tarball = execFileSync(process.execPath, ["scripts/package.mjs", "--out", work], { cwd: SERVER_DIR, encoding: "utf8" }).trim();
    lap("pack");
    assert.match(basename(tarball), /^vexil-\d+\.\d+\.\d+\.tgz$/);
    const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    for (const file of [
      "package.json",
      "bin/vexil.mjs",
      "dist/server.mjs",
      "dist/vexil.mjs",
      "dist/password-worker.mjs",
      "console/index.html",
    ]) {
      assert.ok(files.includes(`package/${file}`), `${file} is packed`);
    }
    assert.ok(
      files.some((f) => /^package\/console\/assets\/.+\.js$/.test(f)),
      "the console's scripts are packed",
    );
    assert.not.ok(
      files.some((f) => f.endsWith(".ts")),
      "no TypeScript source is packed",
    );

    // Install into an empty folder outside the workspace, with a HOME of its own: nothing of the
    // repository or the user's npm config is there, but the machine's CA file is passed on. The
    // first run for a set of dependencies installs into the empty folder and keeps a copy of it;
    // later runs start from that copy without the vexil package, and npm adds the new one.
    const manifest = execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" });
    const dependencies = JSON.stringify([JSON.parse(manifest).dependencies, process.platform, process.arch]);
    const installed = join(CACHE_DIR, `installed-${createHash("sha256").update(dependencies).digest("hex").slice(0, 16)}`);
    const cached = existsSync(join(installed, "node_modules"));
    if (cached) {
      cpSync(installed, app, { recursive: true, verbatimSymlinks: true });
      for (const path of ["node_modules/vexil", "node_modules/.bin/vexil"]) rmSync(join(app, path), { recursive: true, force: true });
    }
    execFileSync(
      "npm",
      [
        "install",
        tarball,
        "--prefix",
        app,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "--prefer-offline",
        `--cache=${NPM_CACHE}`,
        ...npmCafileArgs(),
      ],
      { cwd: app, env: vexilEnv(home, {}), stdio: ["ignore", "ignore", "pipe"], timeout: INSTALL_TIMEOUT_MS },
    );
    if (!cached) {
      const building = `${installed}.building-${process.pid}`;
      cpSync(app, building, { recursive: true, verbatimSymlinks: true });
      rmSync(installed, { recursive: true, force: true });
      renameSync(building, installed);
    }
    lap(cached ? "npm install (from the cached install)" : "npm install (into the empty folder)");
    const bin = join(app, "node_modules", ".bin", "vexil");
    assert.ok(existsSync(bin), "npm linked the vexil command");
    assert.not.ok(existsSync(join(app, "node_modules", "@vexil")), "Vexil's own packages are bundled, not installed");

    // The README's quick start, with the installed command: the demo project, then `vexil serve`.
    const demo = execFileSync(bin, ["demo"], {
      cwd: app,
      env: vexilEnv(home, { DATA_DIR: data }),
      input: "demo-password\n",
      encoding: "utf8",
      stdio: "pipe",
    });
    lap("vexil demo");
    assert.match(demo, /Loaded the demo project "demo"/);
    server = spawn(bin, ["serve"], { cwd: app, env: vexilEnv(home, { DATA_DIR: data, PORT: "0" }), stdio: ["ignore", "pipe", "pipe"] });
    const exited = once(server, "close") as Promise<[number | null, NodeJS.Signals | null]>;
    const url = await startLine(server, lines, exited, "vexil serve", START_DEADLINE_MS, (line) =>
      line.includes("Vexil listening") ? /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1] : undefined,
    );
    lap("vexil serve until listening");
    assert.ok(
      lines.some((line) => line.includes(`embedded PGlite in ${data}`)),
      lines.join("\n"),
    );
    assert.ok(existsSync(join(data, "PG_VERSION")), "the embedded database is in DATA_DIR");
    const call = (method: string, path: string, options: Parameters<typeof callUrl>[3] = {}) => callUrl(url, method, path, options);

    assert.equal((await call("GET", "/ready")).json, { status: "ready" });
    // The console, from the package's own copy of its built files.
    const page = await call("GET", "/");
    assert.is(page.status, 200);
    assert.match(String(page.json), /<div id="root">/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(String(page.json))?.[1];
    assert.ok(script, "the page loads its script");
    assert.is((await call("GET", script as string)).status, 200);
    assert.is((await call("GET", "/docs")).status, 200);

    // "A first session": log in as the admin (`vexil demo` gave it the demo's password), create a banner, read a demo feature's variants.
    assert.match(demo, /^ {2}admin +Admin +created now, with the password you gave$/m);
    const login = await call("POST", "/auth/simple/login", { body: { username: "admin", password: "demo-password" } });
    assert.is(login.status, 200);
    const admin = { cookie: sessionCookieFrom(login.headers["set-cookie"]) };
    assert.is(login.json.passwordChangeRequired, undefined, "no default password to change first");
    const banner = await call("POST", "/api/admin/banners", {
      body: { message: "Maintenance at **noon**", variant: "warning" },
      headers: admin,
    });
    assert.is(banner.status, 201);
    const variants = await call("GET", "/api/admin/projects/demo/features/checkout-flow/environments/production/variants", {
      headers: admin,
    });
    assert.is(variants.status, 200);
    assert.ok(variants.json.variants.length > 0, JSON.stringify(variants.json));
    const alice = await call("POST", "/auth/simple/login", { body: { username: "alice", password: "demo-password" } });
    assert.is(alice.status, 200);
    const pending = await call("GET", "/api/admin/projects/demo/change-requests/pending", {
      headers: { cookie: sessionCookieFrom(alice.headers["set-cookie"]) },
    });
    assert.equal(pending.json.map((cr: { state: string }) => cr.state).sort(), ["Approved", "In review", "Scheduled"]);

    // A flag of its own, on in development, read by an SDK's call with a client token made as the README makes it.
    const created = await call("POST", "/api/admin/projects/default/features", { body: { name: "installed-flag" }, headers: admin });
    assert.is(created.status, 201);
    const on = await call("POST", "/api/admin/projects/default/features/installed-flag/environments/development/on", { headers: admin });
    assert.is(on.status, 200);
    const token = await call("POST", "/api/admin/api-tokens", {
      body: { tokenName: "shop-backend", type: "client", projects: ["default"], environment: "development" },
      headers: admin,
    });
    assert.is(token.status, 201);
    const features = await call("GET", "/api/client/features", { headers: { authorization: token.json.secret } });
    assert.is(features.status, 200);
    assert.equal(
      features.json.features.filter((f: { name: string }) => f.name === "installed-flag").map((f: { enabled: boolean }) => f.enabled),
      [true],
    );

    lap("first session");
    server.kill("SIGTERM");
    const [code] = await exited;
    console.log(
      `installed package: ${Object.entries(timings)
        .map(([step, seconds]) => `${step} ${seconds} s`)
        .join(", ")}`,
    );
    server = undefined;
    assert.is(code, 0, lines.join("\n"));
    assert.ok(
      lines.some((line) => line.includes("stopped: in-flight requests finished")),
      lines.join("\n"),
    );
  } finally {
    if (server) {
      server.kill("SIGKILL");
      await once(server, "close");
    }
    rmSync(work, { recursive: true, force: true });
  }
});

test.run();
