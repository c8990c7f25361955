import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createApiToken } from "@vexil/services";
import { build } from "esbuild";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CHROMIUM, launchChromium } from "./support/browser.ts";
import { adminToken } from "./support/principals.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// The OpenFeature snippets of docs/sdks.md, as written there, against a real server: the Node one run by
// Node with the token in TOKEN, the browser one bundled by esbuild and run in Chromium on a page of
// its own origin (listed in CORS_ORIGINS); only the URL and the browser's token are put in.
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(resolve(here, "../../../docs/sdks.md"), "utf8");
const section = readme.slice(readme.indexOf("## OpenFeature: OFREP"), readme.indexOf("## TypeScript: the typed client"));
const [nodeSnippet = "", browserSnippet = ""] = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

/** A server whose `checkout-flow` (project default) is on in development for the plan "pro", with the demo's variant `classic`. */
async function serverWithCheckoutFlow(env: Record<string, string> = {}): Promise<TestServer> {
  const srv = await startTestServer(env);
  const admin = await adminToken(srv);
  const path = "/api/admin/projects/default/features/checkout-flow/environments/development";
  for (const [method, url, body] of [
    ["POST", "/api/admin/projects/default/features", { name: "checkout-flow" }],
    ["POST", `${path}/on`, undefined],
    ["POST", `${path}/strategies`, { name: "default", constraints: [{ contextName: "plan", operator: "IN", values: ["pro"] }] }],
    [
      "PUT",
      `${path}/variants`,
      [{ name: "classic", weightType: "variable", weight: 1000, payload: { type: "json", value: '{"steps":3}' } }],
    ],
  ] as const) {
    assert.ok((await srv.call(method, url, { headers: admin, body })).status < 300, url);
  }
  return srv;
}

const tokenOf = async (srv: TestServer, type: "client" | "frontend") =>
  (await createApiToken(srv.db.kysely, null, { tokenName: `readme-${type}`, type, projects: ["default"], environment: "development" }))
    .secret;

test("the README's Node snippet evaluates a flag through the OFREP provider", async () => {
  assert.match(nodeSnippet, "new OFREPProvider");
  const srv = await serverWithCheckoutFlow();
  try {
    // Beside this package, so that the snippet's imports resolve as in an application that installed them.
    const dir = resolve(here, "../test-output");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "ofrep-readme.mjs");
    writeFileSync(file, nodeSnippet.replace("http://localhost:4242", srv.url));
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? "", TOKEN: await tokenOf(srv, "client") },
    });
    assert.is(stdout.trim(), 'checkout-flow: {"steps":3}');
  } finally {
    await srv.close();
    await srv.db.close();
  }
});

if (CHROMIUM) {
  test("the README's browser snippet, bundled, evaluates a flag in Chromium through the OFREP web provider", async () => {
    assert.match(browserSnippet, "new OFREPWebProvider");
    let app = "";
    const site = createServer((req, res) => {
      const js = req.url === "/app.js";
      res.writeHead(200, { "content-type": js ? "text/javascript" : "text/html; charset=utf-8" });
      res.end(js ? app : '<!doctype html><html><head><title>app</title><script type="module" src="/app.js"></script></head></html>');
    });
    await new Promise<void>((done) => site.listen(0, "127.0.0.1", done));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const srv = await serverWithCheckoutFlow({ CORS_ORIGINS: origin });
    const browser = await launchChromium();
    try {
      const code = browserSnippet
        .replace("http://localhost:4242", srv.url)
        .replace("demo:development.<secret>", await tokenOf(srv, "frontend"));
      const bundle = await build({
        stdin: { contents: code, resolveDir: here, loader: "js" },
        bundle: true,
        format: "esm",
        platform: "browser",
        write: false,
        logLevel: "silent",
      });
      app = bundle.outputFiles[0]?.text ?? "";
      const page = await browser.newPage();
      const logged: string[] = [];
      page.on("console", (message) => logged.push(message.text()));
      page.on("pageerror", (error) => logged.push(`page error: ${error.message}`));
      const printed = page.waitForEvent("console", { predicate: (m) => m.text().startsWith("checkout-flow:"), timeout: 10_000 });
      await page.goto(`${origin}/`);
      await printed;
      assert.ok(logged.includes('checkout-flow: {"steps":3}'), logged.join("\n"));
    } finally {
      await browser.close();
      site.close();
      await srv.close();
      await srv.db.close();
    }
  });
} else {
  test("the README's browser snippet: skipped, no /usr/bin/chromium on this machine", () => {});
}

test.run();
