import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken } from "./support/principals.ts";
import { CHROMIUM } from "./support/browser.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer();

test("GET /docs is the reference page; its assets come from this server under a self-only CSP", async () => {
  const page = await srv.call("GET", "/docs");
  assert.is(page.status, 200);
  assert.is(page.headers["content-type"], "text/html; charset=utf-8");
  const csp = String(page.headers["content-security-policy"]);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /connect-src 'self'(;|$)/);
  assert.is(page.headers["x-content-type-options"], "nosniff");
  const sources = [...String(page.json).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
  assert.ok(sources.length >= 3);
  for (const source of sources) {
    assert.match(source, /^\/docs\/assets\//, "no CDN");
    const asset = await srv.call("GET", source);
    assert.is(asset.status, 200, source);
  }
  assert.is((await srv.call("GET", "/docs/assets/../../package.json")).status, 404);
  assert.is((await srv.call("GET", "/docs/assets/swagger-ui.js.map")).status, 404);
});

const FOUR = [
  ["POST", "/api/admin/banners"],
  ["POST", "/auth/simple/login"],
  ["GET", "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants"],
  ["GET", "/api/admin/projects/{projectId}/change-requests/pending"],
];

if (CHROMIUM) {
  test("in Chromium: the page lists the four operations, and trying GET variants with a token answers 200", async () => {
    const admin = await adminToken(srv);
    await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: "checkout" } });
    const put = await srv.call("PUT", "/api/admin/projects/default/features/checkout/environments/development/variants", {
      headers: admin,
      body: [{ name: "blue" }, { name: "green" }],
    });
    assert.is(put.status, 200);

    const profile = mkdtempSync(join(tmpdir(), "vexil-chromium-"));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      const foreign: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith(srv.url) && !request.url().startsWith("data:")) foreign.push(request.url());
      });
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));

      await page.goto(`${srv.url}/docs`);
      // The sections start closed (docExpansion "none"): open those of the four operations, as a reader would.
      for (const tag of ["Banners", "Auth", "Features", "Change requests"]) {
        await page.locator(`.opblock-tag[data-tag="${tag}"]`).click();
      }
      for (const [, path] of FOUR) {
        await page.locator(`.opblock-summary-path[data-path="${path}"]`).first().waitFor({ timeout: 30_000 });
      }
      const listed = await page
        .locator(".opblock-summary")
        .evaluateAll((rows) =>
          rows.map((row) => [
            row.querySelector(".opblock-summary-method")?.textContent,
            row.querySelector(".opblock-summary-path")?.getAttribute("data-path"),
          ]),
        );
      for (const [method, path] of FOUR) {
        assert.ok(
          listed.some(([m, p]) => m === method && p === path),
          `${method} ${path} is listed`,
        );
      }

      // Authorize with the API token, as a person would.
      await page.locator(".auth-wrapper .authorize").click();
      const scheme = page.locator(".auth-container").filter({ hasText: "apiToken" });
      await scheme.locator("input").fill(admin.authorization as string);
      await scheme.locator("button.authorize").click();
      await page.locator(".modal-ux .close-modal").click();

      const operation = page.locator("#operations-Features-features-variants");
      await operation.locator(".opblock-summary").click();
      await operation.locator(".try-out__btn").click();
      for (const [name, value] of [
        ["projectId", "default"],
        ["featureName", "checkout"],
        ["environment", "development"],
      ]) {
        await operation.locator(`tr[data-param-name="${name}"] input`).fill(value as string);
      }
      await operation.locator(".execute").click();
      const status = operation.locator(".live-responses-table .response .response-col_status").first();
      await status.waitFor({ timeout: 30_000 });
      assert.is((await status.textContent())?.trim(), "200");
      const body = await operation.locator(".live-responses-table .response-col_description pre").first().textContent();
      assert.equal(JSON.parse(body ?? ""), put.json);

      assert.equal(foreign, [], "the page reaches nothing outside this server");
      assert.equal(problems, [], "no script error and no Content-Security-Policy violation");
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
}

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
