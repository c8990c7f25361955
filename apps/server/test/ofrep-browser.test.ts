import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiToken } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { browserBundle, CHROMIUM, launchChromium } from "./support/browser.ts";
import { until } from "./support/eventually.ts";
import { adminToken } from "./support/principals.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// OpenFeature's web SDK with the OFREP web provider, bundled as an app would bundle them, in
// Chromium on a page of its own origin (docs/ofrep.md#ofrep): the bulk evaluation, the
// 304 of a repeated poll, and a change arriving.
const sdkJs = await browserBundle(`import { OpenFeature, ProviderEvents } from "@openfeature/web-sdk";
  import { OFREPWebProvider } from "@openfeature/ofrep-web-provider";
  Object.assign(window, { OpenFeature, ProviderEvents, OFREPWebProvider });`);

/**
 * The page: the provider against the server for alice, with the change detection `?mode=` names
 * ("sse", the provider's default, which follows the bulk answer's eventStreams, or "polling");
 * what it reads is `window.read()`, and `window.changes` counts ConfigurationChanged events.
 */
function page(server: string, token: string, mode: string): string {
  const options = { baseUrl: server, headers: [["Authorization", token]], pollInterval: 300, changeDetection: mode, cacheMode: "disabled" };
  return `<!doctype html><html><head><title>OFREP</title><script src="/openfeature.js"></script></head><body><script>
    (async () => {
      const provider = new OFREPWebProvider(${JSON.stringify(options)});
      await OpenFeature.setContext({ targetingKey: "alice", plan: "gold" });
      await OpenFeature.setProviderAndWait(provider);
      const client = OpenFeature.getClient();
      window.changes = 0;
      client.addHandler(ProviderEvents.ConfigurationChanged, () => { window.changes++; });
      window.read = () => ({
        beta: client.getBooleanValue("ow.beta", false),
        gold: client.getBooleanValue("ow.gold", false),
        off: client.getBooleanDetails("ow.off", true),
        banner: client.getObjectDetails("ow.banner", {}),
        switch: client.getBooleanValue("ow.switch", false),
      });
      window.ready = true;
    })().catch((error) => { window.failed = String(error && (error.stack || error)); });
  </script></body></html>`;
}

if (CHROMIUM) {
  let srv: TestServer;
  let site: Server;
  let origin: string;
  let admin: Record<string, string>;
  let token: string;
  const env = (name: string) => `/api/admin/projects/default/features/${name}/environments/development`;
  const setup = async (method: string, path: string, body?: unknown) => {
    const res = await srv.call(method, path, { headers: admin, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
  };

  test.before(async () => {
    site = createServer((req, res) => {
      if (req.url === "/openfeature.js") {
        res.writeHead(200, { "content-type": "text/javascript" });
        res.end(sdkJs);
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(page(srv.url, token, new URL(req.url ?? "/", "http://site").searchParams.get("mode") ?? "sse"));
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    srv = await startTestServer({ CORS_ORIGINS: origin });
    admin = await adminToken(srv);
    for (const name of ["ow.beta", "ow.gold", "ow.off", "ow.banner", "ow.switch"]) {
      await setup("POST", "/api/admin/projects/default/features", { name });
    }
    for (const name of ["ow.beta", "ow.gold", "ow.banner", "ow.switch"]) await setup("POST", `${env(name)}/on`);
    await setup("POST", `${env("ow.beta")}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
    await setup("POST", `${env("ow.gold")}/strategies`, {
      name: "default",
      constraints: [{ contextName: "plan", operator: "IN", values: ["gold"] }],
    });
    await setup("PUT", `${env("ow.banner")}/variants`, [
      { name: "blue", weight: 1000, payload: { type: "json", value: '{"color":"#00f"}' } },
    ]);
    token = (
      await createApiToken(srv.db.kysely, null, { tokenName: "web", type: "frontend", projects: ["default"], environment: "development" })
    ).secret;
  });

  test.after(async () => {
    site.close();
    await srv.close();
    await srv.db.close();
  });

  const bulk = () => srv.logs.filter((line) => line.method === "POST" && String(line.url).startsWith("/ofrep/v1/evaluate/flags"));

  /** Opens the page in Chromium, checks what the provider read first, and hands the tab to `then`. */
  async function withPage(mode: string, then: (tab: Page) => Promise<void>): Promise<void> {
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(`${origin}/?mode=${mode}`);
      await tab.waitForFunction("window.ready || window.failed");
      assert.is(await tab.evaluate("window.failed"), undefined);
      const read = (await tab.evaluate("window.read()")) as Record<string, any>;
      assert.is(read.beta, true);
      assert.is(read.gold, true);
      // Switched off: false, not the code's default (true here), and the reason says why.
      assert.equal([read.off.value, read.off.reason, read.off.flagMetadata.enabled], [false, "DISABLED", false]);
      assert.equal([read.banner.value, read.banner.variant, read.banner.reason], [{ color: "#00f" }, "blue", "SPLIT"]);
      assert.is(read.switch, true);
      await then(tab);
    } finally {
      await browser.close();
    }
  }

  test("polling: the provider evaluates every flag at once, its repeated poll is a 304, and a change arrives", async () => {
    srv.logs.length = 0;
    await withPage("polling", async (tab) => {
      assert.is(bulk()[0]?.status, 200);
      await until(() => bulk().some((line) => line.status === 304), "a poll answered 304", 10_000);
      await setup("POST", `${env("ow.switch")}/off`);
      await tab.waitForFunction("window.read().switch === false && window.changes > 0", undefined, { timeout: 10_000 });
    });
    await setup("POST", `${env("ow.switch")}/on`);
  });

  test("event stream: the provider follows eventStreams; a change elsewhere in the scope refetches to a 304, a change to its flags arrives", async () => {
    srv.logs.length = 0;
    await withPage("sse", async (tab) => {
      // The provider opened the stream (it stops polling then).
      await until(() => srv.app.deps.clientStreams.size > 0, "the provider's event stream to open", 10_000);
      const before = bulk().length;
      // A change the scope hears but alice's answer does not show: the refetch is a 304.
      await setup("POST", `${env("ow.off")}/strategies`, { name: "default" });
      await until(
        () =>
          bulk()
            .slice(before)
            .some((line) => line.status === 304),
        "the refetch after an event to answer 304",
        10_000,
      );
      await setup("POST", `${env("ow.switch")}/off`);
      await tab.waitForFunction("window.read().switch === false && window.changes > 0", undefined, { timeout: 10_000 });
    });
    await setup("POST", `${env("ow.switch")}/on`);
  });
} else {
  test("OFREP web provider in Chromium: skipped, no /usr/bin/chromium on this machine", () => {});
}

test.run();
