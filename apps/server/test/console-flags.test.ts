import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { adminToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const editor = await userWithRole(srv, "editor");
  const FEATURE = "/api/admin/projects/default/features/flags-demo";
  const strategies = (environment: string) => `${FEATURE}/environments/${environment}/strategies`;
  const enabledIn = async (environment: string): Promise<boolean> => {
    const res = await srv.call("GET", FEATURE, { headers: admin });
    assert.is(res.status, 200);
    return res.json.environments.find((e: { name: string }) => e.name === environment).enabled;
  };

  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    return { page, problems: collectProblems(page) };
  };

  test("the switch turns a feature on and off in an environment without change requests; REST GET agrees", async () => {
    assert.is((await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: "flags-demo" } })).status, 201);
    assert.is(await enabledIn("development"), false);

    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/flags-demo`);
    const development = page.getByRole("region", { name: /^development/ });
    const toggle = development.getByRole("switch", { name: "On in development" });
    assert.is(await toggle.isChecked(), false);
    // By keyboard: Space on the focused switch.
    await toggle.focus();
    await page.keyboard.press("Space");
    await development.getByRole("heading", { name: "development on" }).waitFor();
    assert.is(await toggle.isChecked(), true);
    assert.is(await enabledIn("development"), true);

    await toggle.click();
    await development.getByRole("heading", { name: "development off" }).waitFor();
    assert.is(await enabledIn("development"), false);
    assert.equal(problems, []);
  });

  test("strategies made through the API show in sortOrder, with constraints, rollout and segments in words", async () => {
    const segment = await srv.call("POST", "/api/admin/segments", { headers: admin, body: { name: "beta-testers", constraints: [] } });
    assert.is(segment.status, 201);
    const second = await srv.call("POST", strategies("development"), {
      headers: admin,
      body: {
        name: "flexibleRollout",
        title: "Half of the beta",
        sortOrder: 2,
        parameters: { rollout: "50", stickiness: "userId", groupId: "flags-demo" },
        constraints: [{ contextName: "userId", operator: "IN", values: ["a", "b"] }],
        segments: [segment.json.id],
      },
    });
    assert.is(second.status, 200);
    const first = await srv.call("POST", strategies("development"), {
      headers: admin,
      body: { name: "default", sortOrder: 1, disabled: true, constraints: [{ contextName: "appName", operator: "STR_STARTS_WITH", values: ["web"], inverted: true }] },
    });
    assert.is(first.status, 200);

    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/flags-demo`);
    const list = page.getByRole("list", { name: "Strategies in development" });
    const items = list.locator(":scope > li");
    await items.first().waitFor();
    assert.equal(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute("data-strategy-id"))), [first.json.id, second.json.id], "in sortOrder");
    const [top, next] = [items.nth(0), items.nth(1)];
    assert.match(await top.innerText(), /^default/);
    assert.match(await top.innerText(), /disabled/);
    assert.match(await top.innerText(), /NOT appName STR_STARTS_WITH web/);
    assert.match(await next.innerText(), /Half of the beta \(flexibleRollout\)/);
    assert.match(await next.innerText(), /rollout 50%/);
    assert.match(await next.innerText(), /stickiness: userId/);
    assert.match(await next.innerText(), /userId IN a, b/);
    assert.match(await next.innerText(), new RegExp(`segments ${segment.json.id}`));
    await page.getByText("No strategies in production").waitFor();
    await checkPage(page, "feature-flags");
    assert.equal(problems, []);
  });
}

test.run();
