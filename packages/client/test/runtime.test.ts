import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";

const root = fileURLToPath(new URL("..", import.meta.url));

function load(script: string) {
  return spawnSync(
    process.execPath,
    ["--import", "tsx", "--import", "./test/support/refuse-server-code.mjs", "--input-type=module", "-e", script],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
}

test("the client loads and builds its clients without any server code", () => {
  const run = load(`
    const { createRestClient, createTrpcClient } = await import("./src/index.ts");
    createRestClient({ baseUrl: "http://127.0.0.1:1" });
    createTrpcClient({ baseUrl: "http://127.0.0.1:1" });
    console.log("loaded");
  `);
  assert.is(run.stdout.trim(), "loaded", run.stderr);
  assert.is(run.status, 0, run.stderr);
});

test("the guard itself refuses server code (so the test above can fail)", () => {
  const run = load(`await import("@vexil/api");`);
  assert.is.not(run.status, 0);
  assert.match(run.stderr, /the client loaded server code: @vexil\/api/);
});

test.run();
