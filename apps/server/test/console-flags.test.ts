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
    assert.is(
      (await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: "flags-demo" } })).status,
      201,
    );
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
      body: {
        name: "default",
        sortOrder: 1,
        disabled: true,
        constraints: [{ contextName: "appName", operator: "STR_STARTS_WITH", values: ["web"], inverted: true }],
      },
    });
    assert.is(first.status, 200);

    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/flags-demo`);
    const list = page.getByRole("list", { name: "Strategies in development" });
    const items = list.locator(":scope > li");
    await items.first().waitFor();
    assert.equal(
      await items.evaluateAll((lis) => lis.map((li) => li.getAttribute("data-strategy-id"))),
      [first.json.id, second.json.id],
      "in sortOrder",
    );
    const [top, next] = [items.nth(0), items.nth(1)];
    assert.match(await top.innerText(), /^default/);
    assert.match(await top.innerText(), /disabled/);
    assert.match(await top.innerText(), /NOT appName STR_STARTS_WITH web/);
    assert.match(await next.innerText(), /Half of the beta \(flexibleRollout\)/);
    assert.match(await next.innerText(), /rollout 50%/);
    assert.match(await next.innerText(), /stickiness: userId/);
    assert.match(await next.innerText(), /userId IN a, b/);
    // Segments by name, once the segments are read.
    await next.getByText("segments beta-testers").waitFor();
    await page.getByText("No strategies in production").waitFor();
    await checkPage(page, "feature-flags");
    assert.equal(problems, []);
  });
  test("a gradual rollout added and removed in the form is what the API stores", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/flags-demo`);
    const form = page.getByRole("form", { name: "New strategy in production" });
    await form.getByLabel("Strategy").selectOption("flexibleRollout");
    await form.getByLabel("Rollout (%)").fill("101");
    await form.getByText("A whole number from 0 to 100.").waitFor();
    assert.ok(await form.getByRole("button", { name: "Add strategy" }).isDisabled(), "a rollout over 100 cannot be sent");
    await form.getByLabel("Rollout (%)").fill("25");
    await form.getByLabel("Stickiness").selectOption("userId");
    await form.getByLabel("Group id").fill("checkout-group");
    await form.getByLabel("Title (optional)").fill("A quarter");
    await form.getByRole("button", { name: "Add strategy" }).click();
    const list = page.getByRole("list", { name: "Strategies in production" });
    await list.getByText("rollout 25%").waitFor();
    const stored = await srv.call("GET", strategies("production"), { headers: admin });
    assert.is(stored.status, 200);
    assert.is(stored.json.length, 1);
    assert.is(stored.json[0].name, "flexibleRollout");
    assert.is(stored.json[0].title, "A quarter");
    assert.equal(stored.json[0].parameters, { rollout: "25", stickiness: "userId", groupId: "checkout-group" });

    await list.getByRole("button", { name: "Remove strategy A quarter" }).click();
    await page.getByText("No strategies in production").waitFor();
    assert.equal((await srv.call("GET", strategies("production"), { headers: admin })).json, []);
    assert.equal(problems, []);
  });

  test("where change requests are on, the switch and strategy edits go into the user's change request", async () => {
    const config = await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
      headers: admin,
      body: { changeRequestsEnabled: true, requiredApprovals: 1 },
    });
    assert.is(config.status, 200);
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/flags-demo`);
    const production = page.getByRole("region", { name: /^production/ });
    assert.is(await production.getByRole("switch").count(), 0, "no direct switch where the API would refuse it");
    await production.getByRole("button", { name: "Propose turning it on" }).waitFor();
    const form = page.getByRole("form", { name: "New strategy in production" });
    await form.getByRole("button", { name: "Add strategy to my change request" }).click();
    const link = form.getByRole("status").filter({ hasText: "Added to your change request" }).getByRole("link");
    const id = ((await link.textContent()) ?? "").replace("#", "");
    await checkPage(page, "feature-flags-change-request");
    const request = await srv.call("GET", `/api/admin/projects/default/change-requests/${id}`, { headers: admin });
    assert.is(request.status, 200);
    const changes = request.json.features.flatMap((f: { changes: { action: string; payload: unknown }[] }) => f.changes);
    assert.equal(
      changes.map((c: { action: string }) => c.action),
      ["addStrategy"],
    );
    assert.equal((await srv.call("GET", strategies("production"), { headers: admin })).json, [], "nothing is stored before it is applied");

    // The request's page shows the change in words, not as a switch.
    await link.click();
    const change = page.getByRole("region", { name: "Changes to flags-demo" });
    await change.getByText("Add a strategy").waitFor();
    assert.match(await change.getByRole("figure").filter({ hasText: "Proposed" }).innerText(), /default/);
    await checkPage(page, "change-request-strategy");
    assert.equal(problems, []);
  });

  test("a change request's page says in words a reorder, a strategy patch, a dependency and an archive", async () => {
    // Change requests are on in production since the test before.
    const FLAG = "/api/admin/projects/default/features";
    for (const name of ["words-parent", "words-child"]) {
      assert.is((await srv.call("POST", FLAG, { headers: admin, body: { name } })).status, 201);
    }
    // Two strategies, through an applied request (the direct write is refused here).
    const add = async (title: string) => {
      const res = await srv.call("POST", "/api/admin/projects/default/environments/production/change-requests", {
        headers: editor.headers,
        body: { feature: "words-child", action: "addStrategy", payload: { name: "default", title } },
      });
      assert.is(res.status, 200, JSON.stringify(res.json));
      return res.json.id as number;
    };
    const setup = await add("First");
    await add("Second");
    const approver = await userWithRole(srv, "editor");
    for (const [headers, state] of [
      [editor.headers, "In review"],
      [approver.headers, "Approved"],
      [approver.headers, "Applied"],
    ] as const) {
      const moved = await srv.call("PUT", `/api/admin/projects/default/change-requests/${setup}/state`, { headers, body: { state } });
      assert.is(moved.status, 200, `${state}: ${JSON.stringify(moved.json)}`);
    }
    const stored = (await srv.call("GET", `${FLAG}/words-child/environments/production/strategies`, { headers: admin })).json;
    assert.equal(
      stored.map((x: { title: string }) => x.title),
      ["First", "Second"],
    );
    const [first, second] = stored as { id: string }[];

    let id = 0;
    for (const [action, payload] of [
      [
        "reorderStrategy",
        [
          { id: second?.id, sortOrder: 0 },
          { id: first?.id, sortOrder: 1 },
        ],
      ],
      ["patchStrategy", { id: first?.id, patch: [{ op: "replace", path: "/title", value: "Renamed" }] }],
      ["addDependency", { feature: "words-parent", variants: ["blue"] }],
      ["archiveFeature", {}],
    ] as const) {
      const res = await srv.call("POST", "/api/admin/projects/default/environments/production/change-requests", {
        headers: editor.headers,
        body: { feature: "words-child", action, payload },
      });
      assert.is(res.status, 200, `${action}: ${JSON.stringify(res.json)}`);
      id = res.json.id;
    }
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/change-requests/${id}`);
    const change = page.getByRole("region", { name: "Changes to words-child" });
    await change.getByText("Reorder the strategies").waitFor();
    // Under load the list has rendered after the heading: its items are waited for too.
    await change
      .getByRole("listitem")
      .filter({ hasText: /^Second$/ })
      .waitFor();
    assert.equal(
      await change
        .getByRole("listitem")
        .filter({ hasText: /^(First|Second)$/ })
        .allInnerTexts(),
      ["Second", "First"],
    );
    assert.match(await change.getByRole("figure").filter({ hasText: "Proposed edits" }).innerText(), /replace \/title = "Renamed"/);
    assert.match(await change.getByRole("figure").filter({ hasText: "Now" }).innerText(), /First/);
    assert.match(await change.innerText(), /Add a dependency: only when words-parent serves blue\./);
    assert.match(await change.innerText(), /Archive the flag/);
    // Nothing of it stored before it is applied.
    assert.is((await srv.call("GET", `${FLAG}/words-child`, { headers: admin })).json.archived, false);
    await checkPage(page, "change-request-words");
    assert.equal(problems, []);
  });
}

test.run();
