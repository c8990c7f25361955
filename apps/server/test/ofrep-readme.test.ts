import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createApiToken } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// The README's OpenFeature snippet, as written there, run by Node against a real server: only the
// URL and the token are put in.
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(resolve(here, "../../../README.md"), "utf8");
const section = readme.slice(readme.indexOf("### OpenFeature: the OFREP providers"));
const snippet = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? "";

test("the README's OpenFeature snippet evaluates a flag through the OFREP provider", async () => {
  assert.match(snippet, "new OFREPProvider");
  const srv = await startTestServer();
  try {
    const admin = await adminToken(srv);
    const env = "/api/admin/projects/default/features/checkout-flow/environments/development";
    for (const [method, path, body] of [
      ["POST", "/api/admin/projects/default/features", { name: "checkout-flow" }],
      ["POST", `${env}/on`, undefined],
      ["POST", `${env}/strategies`, { name: "default", constraints: [{ contextName: "plan", operator: "IN", values: ["pro"] }] }],
    ] as const) {
      assert.ok((await srv.call(method, path, { headers: admin, body })).status < 300, path);
    }
    const token = await createApiToken(srv.db.kysely, null, {
      tokenName: "readme",
      type: "client",
      projects: ["default"],
      environment: "development",
    });
    const code = snippet.replace("http://localhost:4242", srv.url).replace("default:development.<secret>", token.secret);
    // Beside this package, so that the snippet's imports resolve as in an application that installed them.
    const dir = resolve(here, "../test-output");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "ofrep-readme.mjs");
    writeFileSync(file, code);
    const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 20_000 });
    assert.is(stdout.trim(), "checkout-flow: true");
  } finally {
    await srv.close();
    await srv.db.close();
  }
});

test.run();
