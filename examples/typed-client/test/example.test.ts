import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";

const here = fileURLToPath(new URL("..", import.meta.url));
const serverDir = dirname(dirname(fileURLToPath(import.meta.resolve("@vexil/server"))));
const PASSWORD = "example-password-1";

/** The server as a user starts it, on a free port and a fresh embedded database. */
async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: "0",
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      LOG_PRETTY: "false",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = (JSON.parse(line) as { url?: string }).url;
    if (url) {
      child.stdout!.resume();
      return { url, child };
    }
  }
  throw new Error(`the server stopped before it listened (exit code ${child.exitCode})`);
}

test("the example program runs against a server and prints what it did", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "vexil-example-"));
  const server = await startServer(dataDir);
  try {
    const run = spawn(process.execPath, ["--import", "tsx", "main.ts"], {
      cwd: here,
      env: { ...process.env, VEXIL_URL: server.url, VEXIL_PASSWORD: PASSWORD },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    run.stdout!.on("data", (chunk) => (out += chunk));
    run.stderr!.on("data", (chunk) => (err += chunk));
    const [code] = await once(run, "exit");
    assert.is(code, 0, err);
    const lines = out.trim().split("\n");
    assert.is(lines[0], "logged in as admin");
    assert.match(lines[1] ?? "", /^banner \d+ created at \d{4}-\d\d-\d\dT/);
    assert.equal(lines.slice(2), ["variants: blue 800, green 200", "over tRPC too: 2 variants", "pending change requests: 0"]);
  } finally {
    server.child.kill("SIGTERM");
    await once(server.child, "exit");
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
