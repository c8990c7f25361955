import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { adminToken, clientToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

// The console's usage section and unknown-flags page (docs/usage.md#the-console).
const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const sdk = await clientToken(srv);
  const viewer = await userWithRole(srv, "viewer", "usage-viewer");
  const api = async (method: string, path: string, body?: unknown, headers = admin) => {
    const res = await srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };

  await api("POST", "/api/admin/projects/default/features", { name: "usage-flag" });
  await api(
    "POST",
    "/api/client/register",
    {
      appName: "checkout-service",
      instanceId: "pod-1",
      sdkVersion: "unleash-client-node:6.12.1",
      strategies: ["default"],
      started: new Date().toISOString(),
      interval: 10_000,
    },
    sdk,
  );
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
  await api(
    "POST",
    "/api/client/metrics",
    {
      appName: "checkout-service",
      instanceId: "pod-1",
      bucket: {
        start: twoHoursAgo,
        stop: twoHoursAgo,
        toggles: { "usage-flag": { yes: 30, no: 12, variants: { blue: 20, green: 10 } }, "usage-flga": { yes: 0, no: 4 } },
      },
    },
    sdk,
  );
  await srv.app.metricsFlush.tick();

  test("a flag's usage: exposures by hour as a chart with its table, and the applications with their SDK and version", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const problems = collectProblems(page);
    await logIn(page, srv.url, viewer.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/usage-flag`);
    const usage = page.getByRole("region", { name: "Usage" });
    const figure = usage.locator('figure[data-environment="development"]');
    await figure.waitFor();
    assert.match(await figure.locator("figcaption").innerText(), /development: 30 yes, 12 no, 20 blue, 10 green over the last 48 hours/);
    await figure.locator("canvas").first().waitFor();
    assert.match(String(await figure.getByRole("img").getAttribute("aria-label")), /Chart of exposures by hour in development/);

    // The numbers behind the chart, opened by keyboard.
    await figure.locator("summary").focus();
    await page.keyboard.press("Enter");
    const table = figure.getByRole("table");
    await table.waitFor();
    const cells = await table.locator("tbody tr").first().locator("td").allInnerTexts();
    assert.equal(cells.slice(1), ["30", "12", "20", "10"]);

    const apps = usage.getByRole("table", { name: "Applications that reported this flag" });
    await apps.locator("tbody tr").first().waitFor();
    assert.equal((await apps.locator("tbody tr").first().locator("td").allInnerTexts()).slice(0, 5), [
      "checkout-service",
      "unleash-client-node",
      "6.12.1",
      "development",
      "pod-1",
    ]);
    await checkPage(page, "feature-usage");
    assert.equal(problems, []);
  });

  test("the unknown flags page lists what SDKs asked for that does not exist, and who asked", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const problems = collectProblems(page);
    await logIn(page, srv.url, viewer.username, TEST_PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Unknown flags" }).click();
    const row = page.locator('tr[data-flag="usage-flga"]');
    await row.waitFor();
    assert.match(await row.innerText(), /checkout-service in development/);
    assert.is(await page.locator('tr[data-flag="usage-flag"]').count(), 0);
    await checkPage(page, "unknown-flags");
    assert.equal(problems, []);
  });
}

test.run();
