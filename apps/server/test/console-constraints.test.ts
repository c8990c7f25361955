import type { Locator, Page } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { dbSnapshot } from "./support/db-snapshot.ts";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { adminToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const editor = await userWithRole(srv, "editor");
  const FEATURE = "/api/admin/projects/default/features/constrained";
  const strategies = async (environment: string) => {
    const res = await srv.call("GET", `${FEATURE}/environments/${environment}/strategies`, { headers: admin });
    assert.is(res.status, 200);
    return res.json as {
      id: string;
      name: string;
      title: string | null;
      parameters: Record<string, string>;
      constraints: unknown[];
      segments: number[];
    }[];
  };
  const segmentNamed = async (name: string) =>
    (await srv.call("GET", "/api/admin/segments", { headers: admin })).json.segments.find((s: { name: string }) => s.name === name);

  const newPage = async () => {
    // UTC, so that the date picker's value and the ISO value sent are the same clock time.
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "UTC" })).newPage();
    return { page, problems: collectProblems(page) };
  };
  /** The error an input names in aria-describedby: the one shown beside it. */
  const errorBeside = async (page: Page, input: Locator) => {
    assert.is(await input.getAttribute("aria-invalid"), "true");
    const id = await input.getAttribute("aria-describedby");
    assert.ok(id, "the input names its error");
    return page.locator(`[id="${id}"]`).innerText();
  };

  test("segments: create and edit with the constraint editor; a bad value is shown beside its field and nothing is sent", async () => {
    const plan = await srv.call("POST", "/api/admin/context", {
      headers: admin,
      body: { name: "plan", legalValues: [{ value: "free" }, { value: "pro", description: "Paying" }] },
    });
    assert.is(plan.status, 201, JSON.stringify(plan.json));
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Segments" }).click();
    await page.getByRole("heading", { name: "Segments", level: 1 }).waitFor();
    const form = page.getByRole("form", { name: "New segment" });
    await form.getByLabel("Name").fill("beta-testers");
    await form.getByLabel("Description (optional)").fill("Early users");
    // By keyboard: Enter on the focused button adds a constraint.
    await form.getByRole("button", { name: "Add constraint" }).focus();
    await page.keyboard.press("Enter");
    const first = form.getByRole("group", { name: "Constraint 1" });
    await first.getByLabel("Context field").fill("userId");
    await first.getByLabel("Operator").selectOption("STR_STARTS_WITH");
    await first.getByLabel("Values (one per line)").fill("beta-\nqa-");
    await first.getByLabel("Case-insensitive").check();
    const creates: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("segments.create")) creates.push(request.url());
    });
    const before = await dbSnapshot(srv.db.kysely);

    // A second constraint with a value NUM_GT cannot use: the error beside it, the button off, nothing stored.
    await form.getByRole("button", { name: "Add constraint" }).click();
    const second = form.getByRole("group", { name: "Constraint 2" });
    await second.getByLabel("Context field").fill("age");
    await second.getByLabel("Operator").selectOption("NUM_GT");
    await second.getByRole("textbox", { name: /^Number/ }).fill("eighteen");
    assert.is(await errorBeside(page, second.getByRole("textbox", { name: /^Number/ })), "must be a number for NUM_GT");
    const create = form.getByRole("button", { name: "Create segment" });
    assert.ok(await create.isDisabled(), "a bad value cannot be sent");
    await second.getByRole("textbox", { name: /^Number/ }).press("Enter");
    assert.equal(await dbSnapshot(srv.db.kysely), before, "nothing stored");
    await checkPage(page, "segment-bad-value");

    await second.getByRole("textbox", { name: /^Number/ }).fill("17");
    await create.click();
    const table = page.getByRole("table", { name: "All segments" });
    await table.getByRole("cell", { name: /^beta-testers/ }).waitFor();
    assert.is(creates.length, 1, "only the good segment was sent: Enter with a bad value sent nothing");
    const stored = await segmentNamed("beta-testers");
    assert.equal(stored.constraints, [
      { contextName: "userId", operator: "STR_STARTS_WITH", values: ["beta-", "qa-"], inverted: false, caseInsensitive: true },
      { contextName: "age", operator: "NUM_GT", value: "17", inverted: false, caseInsensitive: false },
    ]);
    assert.is(stored.description, "Early users");

    // Edit: the second constraint out, a date in, picked with the date-time picker.
    await table.getByRole("button", { name: "Edit segment beta-testers" }).click();
    const edit = page.getByRole("form", { name: "Edit segment beta-testers" });
    await edit.getByRole("button", { name: "Remove constraint 2" }).click();
    await edit.getByRole("button", { name: "Add constraint" }).click();
    const date = edit.getByRole("group", { name: "Constraint 2" });
    await date.getByLabel("Context field").fill("currentTime");
    await date.getByLabel("Operator").selectOption("DATE_AFTER");
    await date.getByLabel("Date and time").fill("2026-01-01T10:00:00");
    await date.getByText("Sent as 2026-01-01T10:00:00.000Z").waitFor();
    await checkPage(page, "segment-edit");
    await edit.getByRole("button", { name: "Save segment" }).click();
    await page.getByRole("form", { name: "New segment" }).waitFor();
    await table.getByText("currentTime DATE_AFTER 2026-01-01T10:00:00.000Z").waitFor();
    assert.equal((await segmentNamed("beta-testers")).constraints[1], {
      contextName: "currentTime",
      operator: "DATE_AFTER",
      value: "2026-01-01T10:00:00.000Z",
      inverted: false,
      caseInsensitive: false,
    });
    await checkPage(page, "segments");
    assert.equal(problems, []);
  });

  test("a gradual rollout constrained to plan IN pro with a segment, edited and reordered, is what the API stores", async () => {
    assert.is(
      (await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: "constrained" } })).status,
      201,
    );
    const segment = await segmentNamed("beta-testers");
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/constrained`);
    const development = page.getByRole("region", { name: /^development/ });
    await development.getByRole("button", { name: "Add a strategy with constraints, segments or variants" }).click();
    const form = development.getByRole("form", { name: "New strategy with every option in development" });
    await form.getByLabel("Strategy type").selectOption("flexibleRollout");
    await form.getByLabel("rollout (%)").fill("150");
    assert.is(await errorBeside(page, form.getByLabel("rollout (%)")), "A whole number from 0 to 100.");
    await form.getByLabel("rollout (%)").fill("50");
    await form.getByLabel("Title (optional)").fill("Pro half");
    await form.getByRole("button", { name: "Add constraint" }).click();
    const constraint = form.getByRole("group", { name: "Constraint 1" });
    await constraint.getByLabel("Context field").fill("plan");
    // plan has legal values: they are picked, not typed.
    const values = constraint.getByRole("group", { name: "Values of plan" });
    await values.getByLabel("pro", { exact: false }).focus();
    await page.keyboard.press("Space");
    await form.getByRole("group", { name: "Segments" }).getByLabel("beta-testers", { exact: false }).check();
    // Strategy variants, with the weights the server will store.
    await form.getByRole("button", { name: "Add strategy variant" }).click();
    await form.getByRole("button", { name: "Add strategy variant" }).click();
    await form.getByLabel("Name of strategy variant 1").fill("blue");
    await form.getByLabel("Name of strategy variant 2").fill("green");
    await form.getByLabel("Name of strategy variant 2").press("Tab");
    const weights = form.getByRole("table", { name: "Strategy variants" });
    await weights.getByRole("cell", { name: "500 (50.0%)" }).first().waitFor();
    await checkPage(page, "strategy-editor");
    await form.getByRole("button", { name: "Add strategy", exact: true }).click();
    const list = development.getByRole("list", { name: "Strategies in development" });
    await list.getByText("plan IN pro").waitFor();
    let stored = await strategies("development");
    assert.is(stored.length, 1);
    const [added] = stored;
    assert.is(added?.name, "flexibleRollout");
    assert.is(added?.title, "Pro half");
    assert.equal(added?.parameters, { rollout: "50", stickiness: "default", groupId: "constrained" });
    assert.equal(added?.constraints, [{ contextName: "plan", operator: "IN", values: ["pro"], inverted: false, caseInsensitive: false }]);
    assert.equal(added?.segments, [segment.id]);
    assert.equal(
      (stored[0] as unknown as { variants: { name: string; weight: number }[] }).variants.map((v) => [v.name, v.weight]),
      [
        ["blue", 500],
        ["green", 500],
      ],
    );

    // Edit it: a bad value in a new constraint blocks the save; fixed, the new rollout and constraint are stored.
    await list.getByRole("button", { name: "Edit strategy Pro half" }).click();
    const edit = development.getByRole("form", { name: "Edit strategy Pro half in development" });
    await edit.getByLabel("rollout (%)").fill("75");
    await edit.getByRole("button", { name: "Add constraint" }).click();
    const version = edit.getByRole("group", { name: "Constraint 2" });
    await version.getByLabel("Context field").fill("appVersion");
    await version.getByLabel("Operator").selectOption("SEMVER_GTE");
    await version.getByRole("textbox", { name: /^Version/ }).fill("v2");
    assert.is(
      await errorBeside(page, version.getByRole("textbox", { name: /^Version/ })),
      "must be a semantic version (1.2.3) for SEMVER_GTE",
    );
    assert.ok(await edit.getByRole("button", { name: "Save strategy" }).isDisabled());
    await version.getByRole("textbox", { name: /^Version/ }).fill("2.0.0");
    await edit.getByRole("button", { name: "Save strategy" }).click();
    await list.getByText("appVersion SEMVER_GTE 2.0.0").waitFor();
    stored = await strategies("development");
    assert.is(stored[0]?.parameters.rollout, "75");
    assert.is(stored[0]?.constraints.length, 2);
    assert.equal(stored[0]?.segments, [segment.id], "the segment is kept");

    // Reorder: a second strategy, moved above the first.
    const quick = development.getByRole("form", { name: "New strategy in development" });
    await quick.getByLabel("Title (optional)").fill("Everyone else");
    await quick.getByRole("button", { name: "Add strategy" }).click();
    await list.getByText("Everyone else").waitFor();
    await list.getByRole("button", { name: "Move up strategy Everyone else" }).click();
    await list.locator(":scope > li").first().getByText("Everyone else").waitFor();
    assert.equal(
      (await strategies("development")).map((s) => s.title),
      ["Everyone else", "Pro half"],
    );
    await checkPage(page, "strategy-reordered");
    assert.equal(problems, []);
  });

  test("a segment in use is not deleted: the page names where it is used; unused, it is deleted", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/segments`);
    const table = page.getByRole("table", { name: "All segments" });
    await table.getByRole("button", { name: "Delete segment beta-testers" }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "Segment beta-testers was not deleted" });
    const used = refusal.getByRole("list", { name: "Strategies using the segment" });
    await used.waitFor();
    assert.match(await used.innerText(), /flexibleRollout of constrained in development \(project default\)/);
    await checkPage(page, "segment-delete-refused");
    assert.ok(await segmentNamed("beta-testers"), "still there");

    // Its strategy goes; then the segment can go.
    const [using] = (await strategies("development")).filter((s) => s.segments.length > 0);
    assert.is((await srv.call("DELETE", `${FEATURE}/environments/development/strategies/${using?.id}`, { headers: admin })).status, 200);
    await table.getByRole("button", { name: "Delete segment beta-testers" }).click();
    await table.getByRole("button", { name: "Delete segment beta-testers" }).waitFor({ state: "detached" });
    assert.is(await segmentNamed("beta-testers"), undefined);
    assert.equal(problems, []);
  });

  test("a custom strategy type's declared parameters are fields; a dependency on a parent is what the API stores", async () => {
    const custom = await srv.call("POST", "/api/admin/strategies", {
      headers: admin,
      body: { name: "byTenant", parameters: [{ name: "tenants", type: "list", description: "Tenant ids", required: true }] },
    });
    assert.is(custom.status, 201, JSON.stringify(custom.json));
    assert.is(
      (await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: "parent-flag" } })).status,
      201,
    );
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/constrained`);
    const development = page.getByRole("region", { name: /^development/ });
    await development.getByRole("button", { name: "Add a strategy with constraints, segments or variants" }).click();
    const form = development.getByRole("form", { name: "New strategy with every option in development" });
    await form.getByLabel("Strategy type").selectOption("byTenant");
    await form.getByRole("textbox", { name: /^tenants \(comma-separated\)/ }).fill("acme,globex");
    await form.getByRole("button", { name: "Add strategy", exact: true }).click();
    await development.getByRole("list", { name: "Strategies in development" }).getByText("tenants: acme,globex").waitFor();
    const tenants = (await strategies("development")).find((s) => s.name === "byTenant");
    assert.equal(tenants?.parameters, { tenants: "acme,globex" });

    const dependencies = page.getByRole("region", { name: "Dependencies" });
    const add = dependencies.getByRole("form", { name: "New dependency" });
    await add.getByLabel("Parent flag").selectOption("parent-flag");
    await add.getByLabel("Parent's variants").fill("blue, green");
    await add.getByRole("button", { name: "Add dependency" }).click();
    await dependencies.getByText("only when parent-flag is on and serves blue or green").waitFor();
    const feature = await srv.call("GET", FEATURE, { headers: admin });
    assert.equal(feature.json.dependencies, [{ feature: "parent-flag", enabled: true, variants: ["blue", "green"] }]);
    await checkPage(page, "dependencies");
    await dependencies.getByRole("button", { name: "Remove the dependency on parent-flag" }).click();
    await dependencies.getByText("No parent").waitFor();
    assert.equal((await srv.call("GET", FEATURE, { headers: admin })).json.dependencies, []);
    assert.equal(problems, []);
  });

  test("where change requests are on, an edit and a reorder go into the user's change request and change nothing yet", async () => {
    for (const title of ["One", "Two"]) {
      const res = await srv.call("POST", `${FEATURE}/environments/production/strategies`, {
        headers: admin,
        body: { name: "default", title },
      });
      assert.is(res.status, 200);
    }
    const config = await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
      headers: admin,
      body: { changeRequestsEnabled: true, requiredApprovals: 1 },
    });
    assert.is(config.status, 200);
    const before = await strategies("production");
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/constrained`);
    const production = page.getByRole("region", { name: /^production/ });
    const list = production.getByRole("list", { name: "Strategies in production" });
    await list.getByRole("button", { name: "Edit strategy One" }).click();
    const edit = production.getByRole("form", { name: "Edit strategy One in production" });
    await edit.getByRole("button", { name: "Add constraint" }).click();
    const constraint = edit.getByRole("group", { name: "Constraint 1" });
    await constraint.getByLabel("Context field").fill("remoteAddress");
    await constraint.getByLabel("Operator").selectOption("IN_CIDR");
    await constraint.getByLabel("Addresses or CIDR ranges (one per line)").fill("10.0.0.0/33");
    assert.is(
      await errorBeside(page, constraint.getByLabel("Addresses or CIDR ranges (one per line)")),
      '"10.0.0.0/33" must be an IP address or a CIDR range',
    );
    await constraint.getByLabel("Addresses or CIDR ranges (one per line)").fill("10.0.0.0/8");
    await edit.getByRole("button", { name: "Add to my change request" }).click();
    await edit.getByRole("status").filter({ hasText: "Added to your change request" }).waitFor();
    await list.getByRole("button", { name: "Move up strategy Two" }).click();
    const notice = list.locator(":scope > li").filter({ hasText: "Two" }).getByRole("status");
    await notice.waitFor();
    const id = ((await notice.getByRole("link").textContent()) ?? "").replace("#", "");
    await checkPage(page, "strategy-change-request");
    const request = await srv.call("GET", `/api/admin/projects/default/change-requests/${id}`, { headers: admin });
    assert.is(request.status, 200);
    const changes = request.json.features.flatMap((f: { changes: { action: string; payload: unknown }[] }) => f.changes);
    assert.equal(
      changes.map((c: { action: string }) => c.action),
      ["updateStrategy", "reorderStrategy"],
    );
    assert.equal(changes[0].payload.constraints, [
      { contextName: "remoteAddress", operator: "IN_CIDR", values: ["10.0.0.0/8"], inverted: false, caseInsensitive: false },
    ]);
    assert.equal(await strategies("production"), before, "nothing is stored before it is applied");
    assert.equal(problems, []);
  });
}

test.run();
