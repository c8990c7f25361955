import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { createApiToken } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CHROMIUM, launchChromium } from "./support/browser.ts";
import { adminToken } from "./support/principals.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// unleash-proxy-client's own browser build (UMD: `window.unleash`), as an app would load it; its
// package exports only ".", whose Node build sits beside it.
const proxyClientJs = readFileSync(join(dirname(createRequire(import.meta.url).resolve("unleash-proxy-client")), "main.min.js"), "utf8");

/**
 * A site of its own origin: a tiny static server that sends the proxy client, and at
 * `/?options=<json>` a page that starts it with those options.
 */
async function startSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site");
    if (url.pathname === "/unleash.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(proxyClientJs);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(pageUsing(JSON.parse(url.searchParams.get("options") ?? "{}")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The page: starts the proxy client against the server, and puts what it read (or its error) on `window.outcome`. */
function pageUsing(options: Record<string, unknown>): string {
  return `<!doctype html><html><head><title>frontend API</title><script src="/unleash.js"></script></head><body><script>
    const client = new unleash.UnleashClient(${JSON.stringify(options)});
    client.on("error", (error) => { window.outcome ??= { error: String(error && (error.error || error.type || error)) }; });
    let metricsSent = false;
    client.on("sent", () => { metricsSent = true; });
    client.on("ready", async () => {
      const read = {
        banner: client.isEnabled("fe.banner"),
        beta: client.isEnabled("fe.beta"),
        off: client.isEnabled("fe.off"),
        variant: client.getVariant("fe.banner"),
        etag: client.etag,
      };
      // The counts of the calls above, sent now rather than on the client's timer.
      await client.sendMetrics();
      // A second poll, as the client's timer would make it: it sends the ETag back.
      await client.fetchToggles();
      window.outcome ??= { ...read, metricsSent, etagAfterPoll: client.etag };
    });
    window.client = client;
    client.start();
  </script></body></html>`;
}

if (CHROMIUM) {
  let srv: TestServer;
  let token: string;
  let listed: { origin: string; server: Server };
  let unlisted: { origin: string; server: Server };
  let admin: Record<string, string>;

  /** The server with one site's origin on CORS_ORIGINS, and flags for it to read. */
  test.before(async () => {
    listed = await startSite();
    unlisted = await startSite();
    srv = await startTestServer({ CORS_ORIGINS: listed.origin, METRICS_FLUSH_INTERVAL_MS: "0" });
    admin = await adminToken(srv);
    const setup = async (method: string, path: string, body?: unknown) => {
      const res = await srv.call(method, path, { headers: admin, body });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
    };
    const env = (name: string) => `/api/admin/projects/default/features/${name}/environments/development`;
    for (const name of ["fe.banner", "fe.beta", "fe.off"]) await setup("POST", "/api/admin/projects/default/features", { name });
    for (const name of ["fe.banner", "fe.beta"]) await setup("POST", `${env(name)}/on`);
    await setup("POST", `${env("fe.banner")}/strategies`, { name: "default" });
    await setup("PUT", `${env("fe.banner")}/variants`, [{ name: "blue", payload: { type: "json", value: '{"color":"#00f"}' } }]);
    await setup("POST", `${env("fe.beta")}/strategies`, { name: "userWithId", parameters: { userIds: "alice" } });
    const created = await createApiToken(srv.db.kysely, null, {
      tokenName: "browser",
      type: "frontend",
      projects: ["default"],
      environment: "development",
    });
    token = created.secret;
  });

  test.after(async () => {
    listed.server.close();
    unlisted.server.close();
    await srv.close();
    await srv.db.close();
  });

  /** Opens the site's page with these client options in Chromium, and returns what the page saw. */
  async function outcomeOf(
    site: { origin: string },
    options: Record<string, unknown>,
  ): Promise<{ outcome: Record<string, any>; console: string[] }> {
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const console: string[] = [];
      tab.on("console", (message) => console.push(message.text()));
      await tab.goto(`${site.origin}/?options=${encodeURIComponent(JSON.stringify(options))}`);
      await tab.waitForFunction("window.outcome !== undefined");
      return { outcome: (await tab.evaluate("window.outcome")) as Record<string, any>, console };
    } finally {
      await browser.close();
    }
  }

  // Metrics only when the page sends them: the client's own timer waits a minute.
  const clientOptions = () => ({
    url: `${srv.url}/api/frontend`,
    clientKey: token,
    appName: "browser-test",
    refreshInterval: 0,
    metricsInterval: 60,
    metricsIntervalInitial: 60,
    // A custom header of the kind a team adds: the preflight must allow it.
    customHeaders: { "x-unleash-team": "web" },
    context: { userId: "alice" },
  });

  test("unleash-proxy-client on a listed origin reads a flag's state and its variant, with GET", async () => {
    const { outcome } = await outcomeOf(listed, clientOptions());
    assert.equal(outcome.error, undefined);
    assert.equal([outcome.banner, outcome.beta, outcome.off], [true, true, false]);
    assert.equal(outcome.variant, {
      name: "blue",
      enabled: true,
      payload: { type: "json", value: '{"color":"#00f"}' },
      feature_enabled: true,
    });
    // The ETag is exposed to the page, so the client's next poll can be a 304.
    assert.match(outcome.etag, /^"[\w-]+"$/);
    // The second poll was a 304, and the client kept what it had.
    assert.is(outcome.etagAfterPoll, outcome.etag);
    const polls = srv.logs.filter((line) => line.method === "GET" && String(line.url).startsWith("/api/frontend?"));
    assert.equal(
      polls.map((line) => line.status),
      [200, 304],
    );
    // Its metrics (a preflighted JSON POST) are accepted and summed for the token's environment.
    assert.is(outcome.metricsSent, true);
    await srv.app.metricsFlush.tick();
    const raw = (await srv.call("GET", "/api/admin/client-metrics/features/fe.banner/raw", { headers: admin })).json;
    const counted = raw.data.filter((r: { appName: string }) => r.appName === "browser-test");
    assert.ok(
      counted.some((r: { yes: number; variants: Record<string, number> }) => r.yes >= 1 && (r.variants.blue ?? 0) >= 1),
      JSON.stringify(raw.data),
    );
  });

  test("and with usePOSTrequests (a preflighted JSON body)", async () => {
    const { outcome } = await outcomeOf(listed, { ...clientOptions(), usePOSTrequests: true, context: { userId: "bob" } });
    assert.equal(outcome.error, undefined);
    assert.equal([outcome.banner, outcome.beta, outcome.off], [true, false, false]);
    assert.is(outcome.variant.name, "blue");
    const posts = srv.logs.filter((line) => line.method === "POST" && line.url === "/api/frontend");
    assert.ok(
      posts.some((line) => line.status === 200),
      "the POST reached the server",
    );
  });

  test("a page of an origin not on CORS_ORIGINS is refused by the browser", async () => {
    const { outcome, console } = await outcomeOf(unlisted, clientOptions());
    assert.equal(outcome.banner, undefined);
    assert.ok(outcome.error, "the client reports an error");
    assert.ok(
      console.some((line) => /CORS policy/.test(line)),
      `Chromium names CORS: ${console.join(" | ")}`,
    );
  });
} else {
  test("frontend API in Chromium: skipped, no /usr/bin/chromium on this machine", () => {});
}

test.run();
