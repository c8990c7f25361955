import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { assertTabReachesEveryControl, tabTo } from "./support/keyboard.ts";
import { adminToken, clientToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

// Issue 26's target "every control reachable by keyboard", on the pages with the most controls: a flag's page with
// the full strategy editor open (constraints, segments, variants) and its usage chart, the playground with its
// answers, and the segments page with the constraint editor. Each is tabbed through from the top, and worked by
// keyboard alone.
const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const editor = await userWithRole(srv, "editor", "keyboard-editor");
  const api = async (method: string, path: string, body?: unknown, headers = admin) => {
    const res = await srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const FLAG = "keyboard-flag";
  await api("POST", "/api/admin/context", { name: "plan", legalValues: [{ value: "free" }, { value: "pro" }] });
  await api("POST", "/api/admin/segments", {
    name: "keyboard-testers",
    constraints: [{ contextName: "userId", operator: "IN", values: ["k1"], inverted: false, caseInsensitive: false }],
  });
  await api("POST", "/api/admin/projects/default/features", { name: FLAG });
  // An SDK's usage, so the flag's page has its chart.
  const sdk = await clientToken(srv);
  const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
  await api(
    "POST",
    "/api/client/metrics",
    { appName: "keyboard-app", instanceId: "k-1", bucket: { start: anHourAgo, stop: anHourAgo, toggles: { [FLAG]: { yes: 5, no: 7 } } } },
    sdk,
  );
  await srv.app.metricsFlush.tick();

  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    return { page, problems: collectProblems(page) };
  };

  test("a flag's page with the full strategy editor open: Tab reaches every control, and a strategy is added by keyboard alone", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/${FLAG}`);
    await page.getByRole("region", { name: "Usage" }).locator('figure[data-environment="development"] canvas').first().waitFor();
    const development = page.getByRole("region", { name: /^development/ });

    await tabTo(page, development.getByRole("button", { name: "Add a strategy with constraints, segments or variants" }));
    await page.keyboard.press("Enter");
    const form = development.getByRole("form", { name: "New strategy with every option in development" });
    await tabTo(page, form.getByRole("button", { name: "Add constraint" }));
    await page.keyboard.press("Space");
    // The new constraint comes before the button: back to its field.
    const constraint = form.getByRole("group", { name: "Constraint 1" });
    await tabTo(page, constraint.getByLabel("Context field"), "Shift+Tab");
    await page.keyboard.type("plan");
    await tabTo(page, constraint.getByRole("group", { name: "Values of plan" }).getByLabel("pro", { exact: false }));
    await page.keyboard.press("Space");
    await tabTo(page, form.getByRole("group", { name: "Segments" }).getByLabel("keyboard-testers", { exact: false }));
    await page.keyboard.press("Space");
    await tabTo(page, form.getByRole("button", { name: "Add strategy variant" }));
    await page.keyboard.press("Enter");
    await tabTo(page, form.getByLabel("Name of strategy variant 1"), "Shift+Tab");
    await page.keyboard.type("blue");

    // Every control of the page, the editor's included (each constraint's, the variant's row), the chart's none.
    const stops = await assertTabReachesEveryControl(page, page.locator("body"));
    console.log(`keyboard: the flag's page with the strategy editor open: Tab reaches each of its ${stops} controls`);
    await checkPage(page, "keyboard-strategy-editor");

    await tabTo(page, form.getByRole("button", { name: "Add strategy", exact: true }));
    await page.keyboard.press("Enter");
    await development.getByRole("list", { name: "Strategies in development" }).getByText("plan IN pro").waitFor();
    const [strategy] = await api("GET", `/api/admin/projects/default/features/${FLAG}/environments/development/strategies`);
    assert.equal(
      strategy.constraints.map((c: { contextName: string; values: string[] }) => [c.contextName, c.values]),
      [["plan", ["pro"]]],
    );
    assert.is(strategy.segments.length, 1);
    assert.equal(
      strategy.variants.map((v: { name: string }) => v.name),
      ["blue"],
    );
    assert.equal(problems, []);
  });

  test("the playground: Tab reaches every control of the form and of the answers; it is evaluated and read by keyboard", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/playground`);
    const form = page.getByRole("form", { name: "Context" });
    await tabTo(page, form.getByLabel("userId"));
    await page.keyboard.type("k1");
    await tabTo(page, form.getByRole("button", { name: "Evaluate" }));
    await page.keyboard.press("Enter");
    const row = page.locator(`tr[data-flag="${FLAG}"]`);
    await row.waitFor();
    await tabTo(page, row.locator("summary"));
    await page.keyboard.press("Enter");
    assert.is(await row.locator("details").evaluate((d: any) => d.open), true, "the reason opens by keyboard");
    const stops = await assertTabReachesEveryControl(page, page.locator("body"));
    console.log(`keyboard: the playground with its answers: Tab reaches each of its ${stops} controls`);
    await checkPage(page, "keyboard-playground");
    assert.equal(problems, []);
  });

  test("the segments page: Tab reaches every control of the constraint editor, a date's picker included", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/segments`);
    const form = page.getByRole("form", { name: "New segment" });
    await tabTo(page, form.getByRole("button", { name: "Add constraint" }));
    await page.keyboard.press("Space");
    await page.keyboard.press("Space");
    const first = form.getByRole("group", { name: "Constraint 1" });
    await first.getByLabel("Operator").selectOption("DATE_AFTER");
    await first.getByLabel("Date and time").waitFor();
    const second = form.getByRole("group", { name: "Constraint 2" });
    await second.getByLabel("Operator").selectOption("STR_CONTAINS");
    await second.getByLabel("Case-insensitive").waitFor();
    const stops = await assertTabReachesEveryControl(page, page.locator("body"));
    console.log(`keyboard: the segments page with two constraints: Tab reaches each of its ${stops} controls`);
    await checkPage(page, "keyboard-segments");
    assert.equal(problems, []);
  });
}

test.run();
