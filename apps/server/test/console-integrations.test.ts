import { test } from "uvu";
import * as assert from "uvu/assert";
import { until } from "./support/eventually.ts";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { adminToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";
import { startWebhookReceiver } from "./support/webhook-receiver.ts";

const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const root = await userWithRole(srv, "admin");

  test("Integrations: create a webhook (its secret shown once), see its deliveries, switch it off, delete it", async () => {
    const receiver = await startWebhookReceiver();
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const problems = collectProblems(page);
    try {
      await logIn(page, srv.url, root.username, TEST_PASSWORD);
      await page.getByRole("navigation").getByRole("link", { name: "Integrations" }).click();
      const form = page.getByRole("form", { name: "New integration" });
      await form.getByLabel("Webhook URL").fill(receiver.url);
      await form.getByLabel("Description").fill("CI hook");
      await form.getByRole("listbox", { name: /^Events/ }).selectOption(["feature-created"]);
      await form.getByRole("button", { name: "Create integration" }).click();
      const secret = await page.getByTestId("signing-secret").textContent();
      const stored = (await srv.call("GET", "/api/admin/addons", { headers: admin })).json.addons;
      assert.is(stored.length, 1);
      assert.equal(stored[0].events, ["feature-created"]);
      assert.is((await srv.db.kysely.selectFrom("addons").select("signing_secret").executeTakeFirstOrThrow()).signing_secret, secret);

      assert.is((await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: "hooked" } })).status, 201);
      await until(() => receiver.received.length === 1, "the delivery", 10_000);
      await page.getByRole("row").filter({ hasText: "CI hook" }).getByRole("button", { name: "Deliveries" }).click();
      await page.getByRole("row").filter({ hasText: "hooked" }).filter({ hasText: "Delivered" }).waitFor();
      await checkPage(page, "integrations");

      await page.getByRole("row").filter({ hasText: "CI hook" }).getByRole("button", { name: "Turn off" }).click();
      await page.getByRole("row").filter({ hasText: "CI hook" }).getByRole("button", { name: "Turn on" }).waitFor();
      assert.is((await srv.call("GET", `/api/admin/addons/${stored[0].id}`, { headers: admin })).json.enabled, false);
      await page.getByRole("row").filter({ hasText: "CI hook" }).getByRole("button", { name: "Delete" }).click();
      await page.getByText("No integrations yet.").waitFor();
      assert.equal((await srv.call("GET", "/api/admin/addons", { headers: admin })).json.addons, []);
      assert.equal(problems, []);
    } finally {
      await context.close();
      await receiver.close();
    }
  });
}

test.run();
