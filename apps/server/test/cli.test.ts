import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase, type Database, migrateToLatest } from "@vexil/db";
import { createPasswordHasher } from "@vexil/password-hasher";
import { CHANGE_REQUEST_STATES, DEFAULT_ADMIN_PASSWORD, ensureAdminUser, pendingChangeRequestsFor, RootRole } from "@vexil/services";
import { type Kysely, sql } from "kysely";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import { request } from "undici";
import * as assert from "uvu/assert";
import { loginHeaders } from "./support/principals.ts";
import { type CliDatabase, cliDatabase, runVexil, VEXIL_BIN } from "./support/run-cli.ts";
import { startTestServer } from "./support/test-server.ts";

const PASSWORD = "a long enough password";
const COMMANDS = [["serve"], ["migrate"], ["user", "add"], ["token", "create"], ["demo"], ["migrate-from-unleash"]];

async function counts(db: Kysely<Database>) {
  const count = (table: "users" | "api_tokens" | "projects" | "change_requests" | "events") =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  return {
    users: await count("users"),
    tokens: await count("api_tokens"),
    projects: await count("projects"),
    changeRequests: await count("change_requests"),
    events: await count("events"),
  };
}

async function withDatabase(use: (cli: CliDatabase) => Promise<void>): Promise<void> {
  const cli = await cliDatabase();
  try {
    await use(cli);
  } finally {
    await cli.close();
  }
}

test("--help: the overview and each command's help, on stdout, exit 0", async () => {
  const overview = await runVexil(["--help"]);
  assert.is(overview.code, 0, overview.stderr);
  for (const words of COMMANDS) assert.ok(overview.stdout.includes(`vexil ${words.join(" ")}`), `lists ${words.join(" ")}`);
  for (const words of COMMANDS) {
    const help = await runVexil([...words, "--help"]);
    assert.is(help.code, 0, help.stderr);
    assert.ok(help.stdout.startsWith(`Usage: vexil ${words.join(" ")}`), help.stdout);
    assert.is(help.stderr, "");
  }
});

// What a module of the bundle imports before any of its code runs: its import statements, not its import() calls.
function staticImports(file: URL): string[] {
  const code = readFileSync(file, "utf8");
  return [...code.matchAll(/^(?:import\s(?:[^;]*?\s)?from\s|import\s|\}\s*from\s)"([^"]+)";$/gm)].map((m) => m[1] as string);
}

test("--help, --version and a typo answer at once, loading nothing but Node's own modules", async () => {
  const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
  const cases: [string[], number, RegExp][] = [
    [["--help"], 0, /^Usage: vexil <command>/],
    [["demo", "--help"], 0, /^Usage: vexil demo/],
    [["--version"], 0, new RegExp(`^vexil ${version.replaceAll(".", "\\.")}\n$`)],
    [["frob"], 2, /^vexil: unknown command "frob"/],
  ];
  for (const [args, code, output] of cases) {
    const started = performance.now();
    const run = await runVexil(args);
    const ms = performance.now() - started;
    assert.is(run.code, code, run.stderr);
    assert.match(code === 0 ? run.stdout : run.stderr, output);
    // Printed, not asserted (the machine's load decides it); what keeps it short is checked below: nothing heavy is loaded.
    console.log(`vexil ${args.join(" ")}: ${Math.round(ms)} ms`);
  }
  // What the command loads before it looks at argv: the database, the services, the server and
  // their packages are imported by a command when it runs, not by every start of the bin.
  const seen = new Set<string>();
  const loaded: string[] = [];
  const visit = (file: URL) => {
    if (seen.has(file.href)) return;
    seen.add(file.href);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith("./")) visit(new URL(specifier, file));
      else loaded.push(specifier);
    }
  };
  visit(new URL("../dist/vexil.mjs", import.meta.url));
  assert.equal(
    loaded.filter((specifier) => !specifier.startsWith("node:")),
    [],
    "only node: modules",
  );
});

test("bad usage: exit 2, one line naming the problem and pointing to --help, and nothing stored", async () => {
  await withDatabase(async (cli) => {
    assert.is((await runVexil(["migrate"], { env: cli.env })).code, 0);
    const before = await cli.inspect(counts);
    const cases: [string[], RegExp][] = [
      [[], /^Usage: vexil <command>/],
      [["frob"], /^vexil: unknown command "frob" \(see "vexil --help"\)\n$/],
      [["user"], /^Usage: vexil user <add>/],
      [["user", "remove"], /^vexil user: unknown command "remove" \(see "vexil user --help"\)\n$/],
      [["migrate", "now"], /^vexil migrate: Unexpected argument 'now'.*\(see "vexil migrate --help"\)\n$/],
      [["migrate-from-unleash", "--token", "t"], /^vexil migrate-from-unleash: missing required flag --url \(see/],
      [
        ["migrate-from-unleash", "--url", "ftp://unleash", "--token", "t"],
        /^vexil migrate-from-unleash: --url must be an http\(s\) address/,
      ],
      [["user", "add", "--role", "Editor"], /^vexil user add: missing required flag --username \(see "vexil user add --help"\)\n$/],
      [
        ["user", "add", "--username", "x", "--role", "Boss"],
        /^vexil user add: --role must be one of Admin, Editor, Viewer \(got "Boss"\) \(see/,
      ],
      [
        ["user", "add", "--username", "x", "--role", "Editor", "--password", "hunter22222"],
        /^vexil user add: Unknown option '--password'.*\(see "vexil user add --help"\)\n$/,
      ],
      [["user", "add", "--username", "x", "--role", "Editor", "--email", "not-mail"], /^vexil user add: --email must be an e-mail address/],
      [["token", "create", "--name", "t"], /^vexil token create: missing required flag --type/],
      [["token", "create", "--name", "t", "--type", "root"], /--type must be one of admin, client, frontend, scim/],
      [
        ["token", "create", "--name", "t", "--type", "admin", "--project", "default"],
        /--project and --environment apply to client and frontend tokens/,
      ],
      [["token", "create", "--name", "t", "--type", "client", "--expires-at", "tomorrow"], /--expires-at must be an ISO date-time/],
      [
        ["token", "create", "--name", "t", "--type", "client", "--expires-at", "2001-01-01T00:00:00Z"],
        /--expires-at must be in the future/,
      ],
      [["token", "create", "--name"], /^vexil token create: Option '--name <value>' argument missing/],
      [["demo", "--project", "x"], /^vexil demo: Unknown option '--project'/],
    ];
    for (const [args, message] of cases) {
      const run = await runVexil(args, { env: cli.env, input: `${PASSWORD}\n` });
      assert.is(run.code, 2, `vexil ${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message, `vexil ${args.join(" ")}`);
      assert.is(run.stdout, "", `vexil ${args.join(" ")} prints no result`);
    }
    assert.equal(await cli.inspect(counts), before);
  });
});

test("migrate applies the migrations a fresh database lacks, says which, and then has nothing to do", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vexil-migrate-"));
  try {
    const env = { DATA_DIR: join(dir, "data") };
    const first = await runVexil(["migrate"], { env });
    assert.is(first.code, 0, first.stderr);
    const applied = first.stdout.trimEnd().split("\n");
    assert.ok(applied.length >= 5 && applied.every((line) => /^applied \d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[a-z-]+$/.test(line)), first.stdout);
    assert.is(applied[0], "applied 2026-11-22T10-00-foundation");
    assert.match(first.stderr, `Done: ${applied.length} migrations applied.`);
    const second = await runVexil(["migrate"], { env });
    assert.equal([second.code, second.stdout], [0, ""]);
    assert.match(second.stderr, "Nothing to apply: the database is up to date.");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("serve starts what `pnpm start` starts, answers, and stops cleanly on SIGTERM", async () => {
  await withDatabase(async (cli) => {
    const child = spawn(process.execPath, [VEXIL_BIN, "serve"], {
      env: {
        PATH: process.env.PATH ?? "",
        ...cli.env,
        PORT: "0",
        LOG_PRETTY: "false",
        SESSION_SECRET: "a-test-secret-of-at-least-32-chars!",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`serve exited with ${code} before listening:\n${output}`)));
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        const listening = output.split("\n").find((line) => line.includes('"url"'));
        if (listening) resolve(JSON.parse(listening).url);
      });
    });
    try {
      const ready = await request(`${url}/ready`);
      assert.equal([ready.statusCode, await ready.body.json()], [200, { status: "ready" }]);
      const login = await request(`${url}/auth/simple/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password: "unleash4all" }),
      });
      assert.is(login.statusCode, 200, "the first start created the admin user");
      await login.body.dump();
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const [code] = await exited;
      assert.is(code, 0, output);
    }
  });
});

test("a bad configuration is a failure (exit 1) that names the variable", async () => {
  const run = await runVexil(["migrate"], { env: { DATABASE_URL: "mysql://localhost/vexil" } });
  assert.is(run.code, 1);
  assert.match(
    run.stderr,
    /vexil migrate: Invalid configuration:\n {2}DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ connection string/,
  );
});

test("the embedded database is refused, changing nothing, while another process holds it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vexil-held-"));
  const dataDir = join(dir, "data");
  const held = connectDatabase({ dataDir });
  try {
    await migrateToLatest(held.kysely);
    const run = await runVexil(["user", "add", "--username", "late", "--role", "Viewer"], {
      env: { DATA_DIR: dataDir },
      input: `${PASSWORD}\n`,
    });
    assert.is(run.code, 1);
    assert.match(run.stderr, `is in use by process ${process.pid}`);
    assert.equal(await held.kysely.selectFrom("users").select("username").execute(), []);
  } finally {
    await held.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("user add: the password comes from stdin, is stored hashed, and the rules of the API apply", async () => {
  await withDatabase(async (cli) => {
    const run = await runVexil(["user", "add", "--username", "erin", "--role", "editor", "--name", "Erin E"], {
      env: cli.env,
      input: `${PASSWORD}\n`,
    });
    assert.is(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Created user "erin" \(id \d+\) with the root role Editor\.\n$/);
    assert.not.match(run.stdout + run.stderr, PASSWORD);

    const taken = await runVexil(["user", "add", "--username", "erin", "--role", "Viewer"], { env: cli.env, input: `${PASSWORD}\n` });
    assert.equal([taken.code, taken.stdout], [1, ""]);
    assert.match(taken.stderr, 'vexil user add: The username "erin" is taken.');
    const short = await runVexil(["user", "add", "--username", "frank", "--role", "Viewer"], { env: cli.env, input: "short\n" });
    assert.is(short.code, 1);
    assert.match(short.stderr, "vexil user add: The password must be at least 10 characters long.");
    const none = await runVexil(["user", "add", "--username", "gina", "--role", "Viewer"], { env: cli.env, input: "" });
    assert.is(none.code, 2);
    assert.match(none.stderr, "vexil user add: no password on stdin");
    const twoLines = await runVexil(["user", "add", "--username", "gina", "--role", "Viewer"], {
      env: cli.env,
      input: `${PASSWORD}\nsecond\n`,
    });
    assert.is(twoLines.code, 2);
    assert.match(twoLines.stderr, "the password on stdin must be one line");

    const stored = await cli.inspect(async (db) => ({
      users: await db
        .selectFrom("users")
        .select(["username", "name", "root_role", "password_hash"])
        .where("username", "!=", "admin")
        .execute(),
      events: await db.selectFrom("events").select(["type", "created_by"]).where("type", "=", "user-created").execute(),
    }));
    assert.equal(
      stored.users.map((u) => [u.username, u.name, u.root_role]),
      [["erin", "Erin E", RootRole.Editor]],
    );
    assert.equal(stored.events, [{ type: "user-created", created_by: "system" }]);
    const hasher = createPasswordHasher({ workers: 1, cost: 10 });
    try {
      assert.ok(await hasher.verify(PASSWORD, stored.users[0]?.password_hash as string), "the stored hash verifies the password");
    } finally {
      await hasher.close();
    }
  });
});

// A pseudo-terminal from util-linux `script`, so the prompt path runs as a person meets it.
const hasScript = existsSync("/usr/bin/script");
if (hasScript) {
  test("user add on a terminal prompts twice without echo; different answers change nothing", async () => {
    await withDatabase(async (cli) => {
      const prompted = async (username: string, answers: [string, string]) => {
        const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(VEXIL_BIN)} user add --username ${username} --role Viewer`;
        const child = spawn("/usr/bin/script", ["-qec", command, "/dev/null"], {
          env: { PATH: process.env.PATH ?? "", TERM: "dumb", ...cli.env },
        });
        let output = "";
        const seen = (text: string) =>
          new Promise<void>((resolve) => {
            const check = () => {
              if (!output.includes(text)) return;
              child.stdout.off("data", check);
              resolve();
            };
            child.stdout.on("data", check);
            check();
          });
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
        const exited = once(child, "exit");
        await seen(`Password for ${username}: `);
        child.stdin.write(`${answers[0]}\r`);
        await seen(`Password for ${username} (again): `);
        child.stdin.write(`${answers[1]}\r`);
        const [code] = await exited;
        return { code, output };
      };
      const ok = await prompted("pat", [PASSWORD, PASSWORD]);
      assert.is(ok.code, 0, ok.output);
      assert.match(ok.output, 'Created user "pat"');
      assert.not.match(ok.output, PASSWORD, "the password is not echoed");
      const differ = await prompted("quinn", [PASSWORD, `${PASSWORD}!`]);
      assert.is(differ.code, 2, differ.output);
      assert.match(differ.output, "vexil user add: the two passwords differ");
      const users = await cli.inspect((db) =>
        db.selectFrom("users").select("username").where("username", "in", ["pat", "quinn"]).execute(),
      );
      assert.equal(users, [{ username: "pat" }]);
    });
  });
}

test("token create prints only the secret on stdout, stores its hash, and refuses an unknown environment", async () => {
  await withDatabase(async (cli) => {
    const admin = await runVexil(["token", "create", "--name", "ci", "--type", "admin"], { env: cli.env });
    assert.is(admin.code, 0, admin.stderr);
    assert.match(admin.stdout, /^\*:\*\.[0-9a-f]{64}\n$/);
    assert.match(admin.stderr, 'Created the admin token "ci"');
    const client = await runVexil(
      ["token", "create", "--name", "sdk", "--type", "client", "--project", "default", "--environment", "production"],
      { env: cli.env },
    );
    assert.is(client.code, 0, client.stderr);
    assert.match(client.stdout, /^default:production\.[0-9a-f]{64}\n$/);
    const browser = await runVexil(["token", "create", "--name", "web", "--type", "frontend", "--project", "default"], { env: cli.env });
    assert.is(browser.code, 0, browser.stderr);
    assert.match(browser.stdout, /^default:development\.[0-9a-f]{64}\n$/);
    const idp = await runVexil(["token", "create", "--name", "okta", "--type", "scim"], { env: cli.env });
    assert.is(idp.code, 0, idp.stderr);
    assert.match(idp.stdout, /^scim:[0-9a-f]{64}\n$/);
    assert.match(idp.stderr, 'Created the scim token "okta" (id');
    const unknown = await runVexil(["token", "create", "--name", "sdk2", "--type", "frontend", "--environment", "moon"], { env: cli.env });
    assert.equal([unknown.code, unknown.stdout], [1, ""]);
    assert.match(unknown.stderr, 'vexil token create: There is no environment "moon".');

    const rows = await cli.inspect((db) =>
      db.selectFrom("api_tokens").select(["token_name", "type", "environment", "secret_hash"]).orderBy("id").execute(),
    );
    const sha = (s: string) => createHash("sha256").update(s.trim()).digest("hex");
    assert.equal(rows, [
      { token_name: "ci", type: "admin", environment: "*", secret_hash: sha(admin.stdout) },
      { token_name: "sdk", type: "client", environment: "production", secret_hash: sha(client.stdout) },
      { token_name: "web", type: "frontend", environment: "development", secret_hash: sha(browser.stdout) },
      { token_name: "okta", type: "scim", environment: "*", secret_hash: sha(idp.stdout) },
    ]);
  });
});

test("demo loads a project whose four operations all answer with something real, and refuses a second time", async () => {
  await withDatabase(async (cli) => {
    const run = await runVexil(["demo"], { env: cli.env, input: `${PASSWORD}\n` });
    assert.is(run.code, 0, run.stderr);
    assert.match(run.stderr, "Proposing, reviewing and applying 7 change requests...");
    // The users it made, admin among them, each with the password given and said so.
    assert.match(run.stderr, 'created user "admin" with the password you gave');
    for (const [user, role] of [
      ["admin", "Admin"],
      ["alice", "Editor"],
      ["bob", "Editor"],
      ["carol", "Editor"],
    ])
      assert.match(run.stdout, new RegExp(`^ {2}${user} +${role} +created now, with the password you gave$`, "m"));
    assert.not.match(run.stdout + run.stderr, "ADMIN_PASSWORD", "ADMIN_PASSWORD was not set, so it is not named");
    assert.not.match(run.stdout + run.stderr, DEFAULT_ADMIN_PASSWORD);
    const token = (user: string) => new RegExp(`^ {2}${user} +(user:[0-9a-f]{64})$`, "m").exec(run.stdout)?.[1] as string;
    assert.ok(token("alice") && token("bob") && token("carol"), run.stdout);
    assert.match(run.stdout, /^ {2}demo:development\.[0-9a-f]{64}$/m);

    const stored = await cli.inspect(async (db) => ({
      states: (await db.selectFrom("change_requests").select("state").where("project_id", "=", "demo").execute()).map((r) => r.state),
      counts: await counts(db),
      alicePending: await db
        .selectFrom("users")
        .select("id")
        .where("username", "=", "alice")
        .executeTakeFirstOrThrow()
        .then((u) =>
          pendingChangeRequestsFor(
            db,
            { kind: "user", userId: u.id, username: "alice", rootRole: RootRole.Editor, via: "session" },
            "demo",
          ),
        ),
    }));
    assert.equal(new Set(stored.states), new Set(CHANGE_REQUEST_STATES), "a change request in every state");
    assert.equal(
      stored.alicePending.map((cr) => cr.state),
      ["Scheduled", "In review", "Approved"],
    );

    // Everything written went through the services, so it was recorded as events by its users.
    const byUser = await cli.inspect((db) =>
      db
        .selectFrom("events")
        .select("created_by")
        .where("type", "like", "change-request-%")
        .where("type", "!=", "change-request-configuration-updated")
        .distinct()
        .orderBy("created_by")
        .execute(),
    );
    assert.equal(
      byUser.map((e) => e.created_by),
      ["alice", "bob", "carol"],
    );

    const again = await runVexil(["demo"], { env: cli.env, input: `${PASSWORD}\n` });
    assert.equal([again.code, again.stdout], [1, ""]);
    assert.match(again.stderr, 'vexil demo: The project "demo" exists already');
    assert.equal(await cli.inspect(counts), stored.counts, "the second run changed nothing");

    // The README's client token, made by the CLI before the server opens the database.
    const sdkToken = await runVexil(
      ["token", "create", "--name", "shop-backend", "--type", "client", "--project", "demo", "--environment", "development"],
      { env: cli.env },
    );
    assert.is(sdkToken.code, 0, sdkToken.stderr);

    // The real server on that database: the first session of the README.
    const srv = await startTestServer({}, { db: cli.open() });
    try {
      const warnings = srv.logs.filter((l) => String(l.msg).includes(`"${DEFAULT_ADMIN_PASSWORD}"`)).map((l) => l.msg);
      assert.equal(warnings, [], "no warning of a default password admin does not have");
      // admin logs in with the demo's password, and may do everything at once (no change of a default first).
      const adminLogin = await srv.call("POST", "/auth/simple/login", { body: { username: "admin", password: PASSWORD } });
      assert.equal([adminLogin.status, adminLogin.json.passwordChangeRequired], [200, undefined], "no change of password asked for");
      const defaultLogin = await srv.call("POST", "/auth/simple/login", { body: { username: "admin", password: DEFAULT_ADMIN_PASSWORD } });
      assert.is(defaultLogin.status, 401, "the default password is not admin's");
      const admin = await loginHeaders(srv, "admin", PASSWORD);
      const banner = await srv.call("POST", "/api/admin/banners", { headers: admin, body: { message: "Demo day", variant: "warning" } });
      assert.is(banner.status, 201, JSON.stringify(banner.json));
      const variants = await srv.call("GET", "/api/admin/projects/demo/features/checkout-flow/environments/production/variants", {
        headers: admin,
      });
      assert.equal(
        variants.json.variants.map((v: { name: string; weight: number }) => [v.name, v.weight]),
        [
          ["classic", 500],
          ["one-page", 500],
        ],
        "production variants as the applied change request left them",
      );
      const aliceLogin = await srv.call("POST", "/auth/simple/login", { body: { username: "alice", password: PASSWORD } });
      assert.is(aliceLogin.status, 200);
      const pending = await srv.call("GET", "/api/admin/projects/demo/change-requests/pending", {
        headers: { authorization: token("alice") },
      });
      assert.equal(
        pending.json.map((cr: { state: string }) => cr.state),
        ["Scheduled", "In review", "Approved"],
      );
      const bobs = await srv.call("GET", "/api/admin/projects/demo/change-requests/pending", { headers: { authorization: token("bob") } });
      assert.equal(
        bobs.json.map((cr: { state: string }) => cr.state),
        ["Draft"],
      );

      // The README's unleash-client program: an SDK reads the demo's flags with a client token.
      const unleash = new Unleash({
        url: `${srv.url}/api/`,
        appName: "shop-backend",
        customHeaders: { Authorization: sdkToken.stdout.trim() },
        disableMetrics: true,
      });
      try {
        await once(unleash, "synchronized");
        assert.is(unleash.isEnabled("checkout-flow"), true);
        assert.equal(
          [unleash.isEnabled("search-ranking", { userId: "qa-1" }), unleash.isEnabled("search-ranking", { userId: "someone" })],
          [true, false],
        );
      } finally {
        unleash.destroy();
      }
      const staging = await srv.call("GET", "/api/admin/projects/demo/features/checkout-flow", { headers: admin });
      const stagingStrategy = staging.json.environments.find((e: { name: string }) => e.name === "staging").strategies[0];
      assert.equal([stagingStrategy.title, stagingStrategy.segments.length], ["Beta testers", 1]);
      const darkMode = await srv.call("GET", "/api/admin/projects/demo/features/dark-mode", { headers: admin });
      assert.equal(darkMode.json.dependencies, [{ feature: "checkout-flow", enabled: true, variants: [] }]);
    } finally {
      await srv.close();
    }
  });
});

/** Whether `password` is the one stored for `username`. */
async function hasPassword(cli: CliDatabase, username: string, password: string): Promise<boolean> {
  const row = await cli.inspect((db) => db.selectFrom("users").select("password_hash").where("username", "=", username).executeTakeFirst());
  const hasher = createPasswordHasher({ workers: 1, cost: 10 });
  try {
    return !!row?.password_hash && (await hasher.verify(password, row.password_hash));
  } finally {
    await hasher.close();
  }
}

test("demo and admin: ADMIN_PASSWORD when set, the given password for a default admin, none for an admin's own; a short one stores nothing", async () => {
  await withDatabase(async (cli) => {
    const short = await runVexil(["demo"], { env: cli.env, input: "short\n" });
    assert.equal([short.code, short.stdout], [1, ""]);
    assert.match(short.stderr, "vexil demo: The password must be at least 10 characters long.");
    // An embedded database the refused demo never migrated has no users table at all.
    const usersStored = async (db: Kysely<Database>) =>
      (await sql<{ found: boolean }>`select to_regclass('users') is not null as found`.execute(db)).rows[0]?.found
        ? (await counts(db)).users
        : 0;
    assert.is(await cli.inspect(usersStored), 0, "not even admin was made");

    const run = await runVexil(["demo"], {
      env: { ...cli.env, ADMIN_PASSWORD: "the operator's own admin password" },
      input: `${PASSWORD}\n`,
    });
    assert.is(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ {2}admin +Admin +created now, with the password from ADMIN_PASSWORD$/m);
    assert.match(run.stdout, /^ {2}alice +Editor +created now, with the password you gave$/m);
    assert.ok(await hasPassword(cli, "admin", "the operator's own admin password"));
    assert.ok(await hasPassword(cli, "alice", PASSWORD));
  });
  // After a first `serve` with the default password, and with a password admin chose.
  for (const [adminPassword, said, after] of [
    [DEFAULT_ADMIN_PASSWORD, `existed with the default password "${DEFAULT_ADMIN_PASSWORD}"; it now has the password you gave`, PASSWORD],
    ["admin's chosen password", "existed already, with a password of its own, which it keeps", "admin's chosen password"],
  ] as const) {
    await withDatabase(async (cli) => {
      assert.is((await runVexil(["migrate"], { env: cli.env })).code, 0);
      const hasher = createPasswordHasher({ workers: 1, cost: 10 });
      try {
        await cli.inspect((db) => ensureAdminUser(db, hasher, adminPassword));
      } finally {
        await hasher.close();
      }
      const run = await runVexil(["demo"], { env: cli.env, input: `${PASSWORD}\n` });
      assert.is(run.code, 0, run.stderr);
      assert.match(run.stdout, `  admin  Admin   ${said}\n`);
      assert.not.match(run.stderr, 'created user "admin"');
      assert.ok(await hasPassword(cli, "admin", after), `admin's password is ${after}`);
    });
  }
});

test.run();
