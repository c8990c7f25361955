import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createRestClient } from "../src/index.ts";
import { draftChangeRequest } from "./support/draft-change-request.ts";
import { ADMIN_PASSWORD, ADMIN_TOKEN, startServer } from "./support/start-server.ts";

const clientDir = fileURLToPath(new URL("..", import.meta.url));
// Outside the workspace: nothing of the repository can be found from there but the tarball.
const work = mkdtempSync(join(tmpdir(), "vexil-client-outside-"));
const app = join(work, "app");
const unpacked = join(work, "unpacked");
cpSync(new URL("outside-project/", import.meta.url), app, { recursive: true });

// The outside app gets the compiler and Node types of the versions this repository pins.
const require = createRequire(import.meta.url);
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
// npm is run as an outside user would, without the variables pnpm sets for its own scripts.
const plainEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

async function ok(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await run(command, args, cwd, env);
  assert.is(result.status, 0, `${command} ${args.join(" ")}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Every module a shipped JavaScript or declaration file imports or re-exports. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)["']([^"']+)["']/gm)].map((m) => m[1]!);
}

let tarball = "";

test("pnpm pack ships built JavaScript, declarations and the README; none of it imports @vexil/* or server code", async () => {
  await ok("pnpm", ["pack", "--pack-destination", work], clientDir);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz")) ?? "no tarball");
  const entries = (await ok("tar", ["-tzf", tarball], work))
    .split("\n")
    .filter(Boolean)
    .map((e) => e.replace(/^package\//, ""));
  assert.ok(entries.includes("dist/index.js") && entries.includes("dist/index.d.ts"), entries.join(", "));
  assert.equal(entries.filter((e) => !/^dist\/[\w-]+\.(js|d\.ts)$/.test(e)).sort(), ["README.md", "package.json"]);

  await ok("mkdir", ["-p", unpacked], work);
  await ok("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"], work);
  assert.is(readFileSync(join(unpacked, "README.md"), "utf8"), readFileSync(join(clientDir, "README.md"), "utf8"));
  const manifest = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8")) as {
    private?: boolean;
    dependencies: Record<string, string>;
  };
  assert.is(manifest.private, undefined);
  assert.equal(Object.keys(manifest.dependencies).sort(), ["@trpc/client", "@trpc/server", "undici"]);

  for (const entry of entries.filter((e) => e.startsWith("dist/"))) {
    const imports = importsOf(readFileSync(join(unpacked, entry), "utf8"));
    for (const specifier of imports) {
      if (specifier.startsWith("./")) {
        const target = `dist/${specifier.slice(2).replace(/\.js$/, entry.endsWith(".d.ts") ? ".d.ts" : ".js")}`;
        assert.ok(entries.includes(target), `${entry} imports ${specifier}, which is not shipped`);
      } else {
        assert.ok(Object.hasOwn(manifest.dependencies, specifier), `${entry} imports ${specifier}`);
      }
    }
  }
  // The code that runs loads the tRPC client and undici, nothing else.
  assert.equal([...new Set(importsOf(readFileSync(join(unpacked, "dist/index.js"), "utf8")))].sort(), ["@trpc/client", "undici"]);
});

test("an app outside the repository type-checks against the tarball; a wrong input fails to compile, naming the field", async () => {
  await ok(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      tarball,
      `typescript@${versionOf("typescript")}`,
      `@types/node@${versionOf("@types/node")}`,
    ],
    app,
    plainEnv,
  );
  const tsc = join(app, "node_modules/typescript/bin/tsc");
  await ok(process.execPath, [tsc, "-p", "tsconfig.json"], app);

  const wrong = await run(process.execPath, [tsc, "-p", "tsconfig.wrong.json", "--pretty", "false"], app);
  assert.is.not(wrong.status, 0);
  const errors = wrong.stdout.split("\n").filter((line) => line.startsWith("src/wrong.ts("));
  const source = readFileSync(join(app, "src/wrong.ts"), "utf8").split("\n");
  const marked = source.flatMap((line, i) => (line.includes("// wrong: ") ? [[i + 1, line.split("// wrong: ")[1]!]] : []));
  assert.is(marked.length, 4);
  assert.equal(
    errors.map((line) => [Number(/\((\d+),/.exec(line)?.[1]), /'(\w+)'/.exec(line)?.[1]]),
    marked,
    wrong.stdout,
  );
});

test("that app runs the four operations over REST and over tRPC against a real server", async () => {
  const srv = await startServer();
  try {
    const admin = createRestClient({ baseUrl: srv.url, token: ADMIN_TOKEN });
    await admin.features.create({ projectId: "default", name: "checkout" });
    const where = { projectId: "default", featureName: "checkout", environment: "development" };
    await admin.features.replaceVariants({ ...where, variants: [{ name: "blue" }, { name: "green" }] });
    const draft = await draftChangeRequest(srv.url, "checkout", [{ name: "red" }]);

    const env = { ...plainEnv, VEXIL_URL: srv.url, VEXIL_PASSWORD: ADMIN_PASSWORD };
    const output = JSON.parse(await ok(process.execPath, ["out/main.js"], app, env)) as {
      banners: { id: number; message: string; variant: string; sticky: boolean }[];
    };
    const pending = [{ id: draft.id, state: "Draft", environment: "production" }];
    assert.equal(output, {
      users: ["admin", "admin"],
      admins: [true, true],
      banners: [
        { id: output.banners[0]!.id, message: "Posted over REST", variant: "warning", sticky: false },
        { id: output.banners[1]!.id, message: "Posted over tRPC", variant: "info", sticky: true },
      ],
      variants: [
        [
          ["blue", 500],
          ["green", 500],
        ],
        [
          ["blue", 500],
          ["green", 500],
        ],
      ],
      pending: [pending, pending],
      failures: [
        [404, "NotFoundError"],
        [404, "NotFoundError"],
      ],
    });
    const stored = (await admin.banners.list()).banners.map((b) => [b.id, b.message]);
    assert.equal(
      stored,
      [...output.banners].reverse().map((b) => [b.id, b.message]),
      "both banners are stored, newest first",
    );
  } finally {
    await srv.close();
  }
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
