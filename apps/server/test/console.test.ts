import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { loadDemo } from "../src/cli/load-demo.ts";
import { checkPage, collectProblems, logIn, SCREENSHOTS, startConsoleSuite } from "./support/browser.ts";
import { adminToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

const { srv, browser } = await startConsoleSuite();
const DEMO_PASSWORD = "demo-password";

if (browser) {
  console.log(`console screenshots: ${SCREENSHOTS}`);
  const admin = await adminToken(srv);
  const demo = await loadDemo(srv.db.kysely, srv.app.deps.hasher, DEMO_PASSWORD, () => undefined);
  const api = async (method: string, path: string, body?: unknown, headers = admin) => {
    const res = await srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const VARIANTS = "/api/admin/projects/default/features/checkout/environments/production/variants";

  const newPage = async (): Promise<{ page: Page; problems: string[] }> => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    return { page, problems: collectProblems(page) };
  };

  test("login says a wrong password and a 429's wait as a person reads them", async () => {
    const { page, problems } = await newPage();
    await page.goto(`${srv.url}/`);
    await checkPage(page, "login");
    // By keyboard alone: Tab to each field, Enter to send.
    await page.keyboard.press("Tab");
    await page.keyboard.type("nobody-here");
    await page.keyboard.press("Tab");
    await page.keyboard.type("wrong");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").filter({ hasText: "Wrong username or password." }).waitFor();
    for (let i = 1; i < 5; i++) {
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByRole("alert").filter({ hasText: "Wrong username or password." }).waitFor();
    }
    await checkPage(page, "login-wrong-password");
    // The sixth failure in a row waits a second first (docs/auth.md#login-throttle): the page says how long.
    await page.getByRole("button", { name: "Log in" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /Too many failed attempts\. Try again in 1 second \(at .+\)\./ })
      .waitFor();
    await checkPage(page, "login-too-many");
    assert.equal(problems, []);
  });

  test("four eyes: alice proposes a variant change, bob approves, alice applies; REST returns the new variants", async () => {
    const put = await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
      headers: admin,
      body: { changeRequestsEnabled: true, requiredApprovals: 1 },
    });
    assert.is(put.status, 200);
    assert.is((await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: "checkout" } })).status, 201);

    const alice = await newPage();
    await logIn(alice.page, srv.url, "alice", DEMO_PASSWORD);
    await alice.page.getByRole("link", { name: "Default" }).click();
    await alice.page.getByRole("link", { name: "checkout" }).click();
    const production = alice.page.getByRole("form", { name: "Variants in production" });
    await production.getByText("Change requests are on in production").waitFor();
    await production.getByRole("button", { name: "Add variant" }).click();
    await production.getByRole("button", { name: "Add variant" }).click();
    await production.getByLabel("Name of variant 1").fill("blue");
    await production.getByLabel("Name of variant 2").fill("green");
    await production.getByLabel("Weight type of variant 2").selectOption("fix");
    await production.getByLabel("Fix weight of variant 2").fill("300");
    await production.getByLabel("Payload type of variant 1").selectOption("json");
    await production.getByLabel("Payload value of variant 1").fill("{not json");
    await production.getByText("must be valid JSON").waitFor();
    assert.ok(await production.getByRole("button", { name: "Add to my change request" }).isDisabled(), "an invalid payload cannot be sent");
    await production.getByLabel("Payload value of variant 1").fill('{"color":"blue"}');
    // The weights the server will store, before saving.
    assert.equal(await production.getByTestId("stored-weight").allTextContents(), ["700 (70.0%)", "300 (30.0%)"]);
    await checkPage(alice.page, "feature");
    await production.getByRole("button", { name: "Add to my change request" }).click();
    await production.getByRole("status").filter({ hasText: "Added to your change request" }).getByRole("link").click();
    await alice.page.getByTestId("cr-state").filter({ hasText: "Draft" }).waitFor();
    await alice.page.getByRole("button", { name: "Send for review" }).click();
    await alice.page.getByTestId("cr-state").filter({ hasText: "In review" }).waitFor();
    assert.is(await alice.page.getByRole("button", { name: "Approve" }).count(), 0, "the author is not offered to approve");
    const requestUrl = alice.page.url();

    const bob = await newPage();
    await logIn(bob.page, srv.url, "bob", DEMO_PASSWORD);
    await bob.page.goto(requestUrl);
    const diff = bob.page.getByRole("table", { name: /Variants, proposed by alice/ });
    await diff.getByRole("row", { name: /green/ }).filter({ hasText: "30.0% fix" }).waitFor();
    assert.match(await diff.getByRole("row", { name: /blue/ }).innerText(), /added/);
    assert.is(await bob.page.getByRole("button", { name: "Send for review" }).count(), 0);
    await checkPage(bob.page, "change-request-review");
    await bob.page.getByRole("button", { name: "Approve" }).click();
    await bob.page.getByTestId("cr-state").filter({ hasText: "Approved" }).waitFor();

    await alice.page.reload();
    await alice.page.getByTestId("cr-state").filter({ hasText: "Approved" }).waitFor();
    await alice.page.getByRole("button", { name: "Apply now" }).click();
    await alice.page.getByTestId("cr-state").filter({ hasText: "Applied" }).waitFor();
    await checkPage(alice.page, "change-request-applied");

    const variants = await srv.call("GET", VARIANTS, { headers: admin });
    assert.is(variants.status, 200);
    assert.equal(
      variants.json.variants.map((v: { name: string; weight: number; weightType: string; payload?: unknown }) => [
        v.name,
        v.weight,
        v.weightType,
        v.payload,
      ]),
      [
        ["blue", 700, "variable", { type: "json", value: '{"color":"blue"}' }],
        ["green", 300, "fix", undefined],
      ],
    );
    assert.equal([...alice.problems, ...bob.problems], []);
  });

  test("every page: no serious axe violation, a screenshot; the demo's data on screen, its time after navigation printed", async () => {
    // What the demo lacks for some pages to have data: an SDK's usage (with a flag it asked for that does not exist),
    // an archived flag, a project role, a banner (off, so the other pages stay as they are) and an integration (off).
    const sdk = {
      authorization: (
        await api("POST", "/api/admin/api-tokens", {
          tokenName: "demo-sdk",
          type: "client",
          projects: ["demo"],
          environment: "development",
        })
      ).secret,
    };
    await api(
      "POST",
      "/api/client/register",
      {
        appName: "shop-web",
        instanceId: "web-1",
        sdkVersion: "unleash-client-node:6.12.1",
        strategies: ["default"],
        started: new Date().toISOString(),
        interval: 10_000,
      },
      sdk,
    );
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await api(
      "POST",
      "/api/client/metrics",
      {
        appName: "shop-web",
        instanceId: "web-1",
        bucket: {
          start: anHourAgo,
          stop: anHourAgo,
          toggles: { "checkout-flow": { yes: 40, no: 60, variants: { "one-page": 25, classic: 15 } }, "checkout-flwo": { yes: 0, no: 3 } },
        },
      },
      sdk,
    );
    await srv.app.metricsFlush.tick();
    await api("POST", "/api/admin/projects/demo/features", { name: "retired-banner" });
    await api("DELETE", "/api/admin/projects/demo/features/retired-banner");
    const carol = await srv.db.kysely.selectFrom("users").select("id").where("username", "=", "carol").executeTakeFirstOrThrow();
    await api("POST", "/api/admin/projects/demo/role/5/access", { users: [{ id: carol.id }] });
    await api("POST", "/api/admin/banners", { message: "Maintenance on Sunday", enabled: false });
    await api("POST", "/api/admin/addons", {
      provider: "webhook",
      enabled: false,
      description: "Shop's deploy hook",
      parameters: { url: "https://127.0.0.1:9/hook" },
      events: ["feature-created"],
    });
    const inReview = demo.changeRequests.find((cr) => cr.state === "In review") as { id: number };

    const { page, problems } = await newPage();
    await logIn(page, srv.url, "alice", DEMO_PASSWORD);
    // From navigation (a full load of the page) until its data is on screen, printed for the CI log; the target is
    // under a second (issue 26), but not asserted: a performance figure comes from the bench, and on a loaded 2-core
    // CI machine the usage page once took 1,016 ms.
    const timed = async (name: string, path: string, ready: () => Promise<unknown>) => {
      const started = Date.now();
      await page.goto(`${srv.url}${path}`);
      await ready();
      console.log(`console: ${name} (${path}) shows its data ${Date.now() - started} ms after navigation`);
      await checkPage(page, name);
    };
    await timed("projects", "/projects", () => page.getByRole("link", { name: "Demo shop" }).waitFor());
    await timed("project", "/projects/demo", () => page.getByRole("link", { name: "checkout-flow" }).waitFor());
    await timed("feature-demo", "/projects/demo/features/checkout-flow", () =>
      page.getByRole("form", { name: "Variants in production" }).getByTestId("stored-weight").first().waitFor(),
    );
    await timed("feature-usage-demo", "/projects/demo/features/checkout-flow", () =>
      page.getByRole("region", { name: "Usage" }).locator('figure[data-environment="development"] canvas').first().waitFor(),
    );
    await timed("archive-demo", "/projects/demo/archive", () => page.getByRole("cell", { name: "retired-banner", exact: true }).waitFor());
    await timed("project-access-demo", "/projects/demo/access", () => page.getByRole("cell", { name: "carol", exact: true }).waitFor());
    await timed("inbox-demo", "/change-requests/inbox", () =>
      page.getByRole("table", { name: "Change requests waiting on you, oldest first" }).locator("tbody tr").first().waitFor(),
    );
    await timed("change-request-demo", `/projects/demo/change-requests/${inReview.id}`, () =>
      page.getByTestId("cr-state").filter({ hasText: "In review" }).waitFor(),
    );
    await timed("playground-demo", "/playground", () =>
      Promise.all([
        page.getByLabel("Evaluate in environment").locator('option[value="production"]').waitFor({ state: "attached" }),
        page.getByRole("form", { name: "Context" }).getByLabel("userId").waitFor(),
      ]),
    );
    await timed("unknown-flags-demo", "/unknown-flags", () => page.locator('tr[data-flag="checkout-flwo"]').waitFor());
    // A path the server answers with the console that no page of it has.
    await page.goto(`${srv.url}/projects/demo/no-such-page`);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    await checkPage(page, "not-found");
    await timed("pending", "/change-requests", () => page.getByRole("cell", { name: "Scheduled", exact: false }).first().waitFor());
    const scheduled = page.getByRole("row").filter({ hasText: "Scheduled" }).getByRole("link");
    await scheduled.click();
    await page.getByTestId("cr-schedule").filter({ hasText: "pending" }).waitFor();
    await checkPage(page, "change-request-scheduled");
    // The demo's approved staging request, scheduled from its page for tomorrow.
    await page.goto(`${srv.url}/change-requests`);
    await page.getByRole("row").filter({ hasText: "Approved" }).getByRole("link").click();
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel("Apply at (your local time)").fill(local);
    await page.getByRole("button", { name: "Schedule" }).click();
    await page.getByTestId("cr-schedule").filter({ hasText: "pending" }).waitFor();
    const scheduledId = Number(page.url().split("/").pop());
    const stored = await srv.call("GET", `/api/admin/projects/demo/change-requests/${scheduledId}`, { headers: admin });
    assert.is(stored.json.state, "Scheduled");
    assert.is(Math.round(Date.parse(stored.json.schedule.scheduledAt) / 60_000), Math.floor(tomorrow.getTime() / 60_000));

    const root = await userWithRole(srv, "admin");
    await page.getByRole("button", { name: "Log out" }).click();
    await logIn(page, srv.url, root.username, TEST_PASSWORD);
    await timed("users", "/users", () => page.getByRole("cell", { name: "alice", exact: true }).waitFor());
    const newUser = page.getByRole("form", { name: "New user" });
    await newUser.getByLabel("Username").fill("vera");
    await newUser.getByLabel("Password").fill("vera's password");
    await newUser.getByRole("combobox", { name: /^Role/ }).selectOption("3");
    await newUser.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("row").filter({ hasText: "vera" }).filter({ hasText: "Viewer" }).waitFor();
    await page.goto(`${srv.url}/tokens`);
    await page.getByLabel("Name", { exact: true }).fill("shop-backend");
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = await page.getByLabel("New token").inputValue();
    // A client token for every project, in the default environment: `*:development.<secret>`.
    assert.match(secret, /^\*:development\.\w{16,}/);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy token" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    assert.is(await page.evaluate("navigator.clipboard.readText()"), secret);
    await checkPage(page, "tokens");
    await timed("tokens-demo", "/tokens", () => page.getByRole("cell", { name: "shop-backend", exact: true }).waitFor());
    assert.is(await page.getByLabel("New token").count(), 0, "the secret is shown once");
    assert.ok(!(await page.content()).includes(secret));

    await timed("events-demo", "/events", () =>
      page.getByRole("table", { name: "Every change, newest first" }).locator("tbody tr").first().waitFor(),
    );
    await timed("segments-demo", "/segments", () =>
      page
        .getByRole("table", { name: "All segments" })
        .getByRole("cell", { name: /^beta-testers/ })
        .waitFor(),
    );
    await timed("banners-demo", "/banners", () =>
      page.getByRole("table", { name: "All banners, newest first" }).getByText("Maintenance on Sunday").waitFor(),
    );
    await timed("integrations-demo", "/integrations", () => page.getByRole("cell", { name: "Shop's deploy hook", exact: true }).waitFor());
    // The Viewer created above reads everything and is offered nothing to change.
    await page.getByRole("button", { name: "Log out" }).click();
    await logIn(page, srv.url, "vera", "vera's password");
    assert.equal(await page.getByRole("navigation").getByRole("link").allTextContents(), [
      "Projects",
      "Change requests",
      "Segments",
      "Inbox",
      "Playground",
      "Unknown flags",
    ]);
    await page.goto(`${srv.url}/projects/demo/features/checkout-flow`);
    await page.getByRole("heading", { name: /^production/ }).waitFor();
    assert.is(await page.getByRole("button", { name: /Save variants|Add to my change request|Propose/ }).count(), 0);
    await page.getByText("classic: 500‰ (fix)").waitFor();
    await checkPage(page, "feature-viewer");
    await page.goto(`${srv.url}/segments`);
    await page.getByRole("table", { name: "All segments" }).waitFor();
    assert.is(await page.getByRole("form").count(), 0, "a Viewer gets no segment form");
    assert.equal(problems, []);
  });
}

test.run();
