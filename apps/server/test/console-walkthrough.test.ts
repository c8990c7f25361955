import { once } from "node:events";
import type { Locator, Page } from "playwright-core";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, SCREENSHOTS, startConsoleSuite } from "./support/browser.ts";
import { adminToken } from "./support/principals.ts";

// Issue 26's walk-through as two people would do it, in Chromium: alice shapes a flag in the console, reads the
// playground, proposes it for staging; bob approves from his inbox; alice's other open pages follow without a
// reload (docs/console-live.md); alice applies; the Node SDK on staging sees it.
const { srv, browser } = await startConsoleSuite();

if (browser) {
  console.log(`console screenshots: ${SCREENSHOTS}`);
  const admin = await adminToken(srv);
  const PASSWORD = "a walk-through password";
  const FLAG = "walk-checkout";
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await srv.call(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };

  // Two Editors, and staging in the default project with change requests on (one approval).
  for (const username of ["alice", "bob"]) await api("POST", "/api/admin/user-admin", { username, rootRole: 2, password: PASSWORD });
  await api("POST", "/api/admin/environments", { name: "staging", type: "test" });
  await api("POST", "/api/admin/projects/default/environments", { environment: "staging" });
  await api("PUT", "/api/admin/projects/default/environments/staging/change-requests/config", {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  // A context field with legal values, so that the editors and the playground offer them.
  await api("POST", "/api/admin/context", { name: "plan", legalValues: [{ value: "free" }, { value: "pro" }] });

  const newContext = () => browser.newContext({ viewport: { width: 1280, height: 900 } });
  const problemsOf: string[][] = [];
  const watched = (page: Page) => {
    problemsOf.push(collectProblems(page));
    return page;
  };
  /** A mark in the page's window: still there later means the page was not reloaded meanwhile. */
  const markUnreloaded = (page: Page) => page.evaluate("window.__unreloaded = true");
  const stillUnreloaded = async (page: Page) => assert.is(await page.evaluate("window.__unreloaded === true"), true, "no reload");
  const live = (page: Page) => page.locator('[data-live="live"]').waitFor();
  const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

  /** The full strategy editor in `environment`: a 100% gradual rollout for `plan IN pro`, in the segment early-adopters. */
  async function fillProRollout(page: Page, environment: string): Promise<Locator> {
    const region = page.getByRole("region", { name: new RegExp(`^${environment}`) });
    await region.getByRole("button", { name: "Add a strategy with constraints, segments or variants" }).click();
    const form = region.getByRole("form", { name: `New strategy with every option in ${environment}` });
    await form.getByLabel("Strategy type").selectOption("flexibleRollout");
    await form.getByLabel("rollout (%)").fill("100");
    await form.getByLabel("Title (optional)").fill("Pro plan");
    await form.getByRole("button", { name: "Add constraint" }).click();
    const constraint = form.getByRole("group", { name: "Constraint 1" });
    await constraint.getByLabel("Context field").fill("plan");
    await constraint.getByRole("group", { name: "Values of plan" }).getByLabel("pro", { exact: false }).check();
    await form.getByRole("group", { name: "Segments" }).getByLabel("early-adopters", { exact: false }).check();
    return form;
  }

  /** The playground's answer for the flag, for a user on a plan, in development. */
  async function playground(page: Page, userId: string, plan: string): Promise<string> {
    const form = page.getByRole("form", { name: "Context" });
    await form.getByLabel("Evaluate in environment").selectOption("development");
    await form.getByLabel("userId").fill(userId);
    await form.getByLabel("plan").selectOption(plan);
    await form.getByRole("button", { name: "Evaluate" }).click();
    const pill = page.locator(`tr[data-flag="${FLAG}"] .pill`).first();
    await page
      .locator(`tr[data-flag="${FLAG}"] .pill`, { hasText: plan === "pro" ? "On" : "Off" })
      .first()
      .waitFor();
    return (await pill.innerText()).trim();
  }

  test("alice shapes a flag and proposes it, bob approves from his inbox, alice's open pages follow live, the SDK sees it", async () => {
    const alices = await newContext();
    const alice = watched(await alices.newPage());
    await logIn(alice, srv.url, "alice", PASSWORD);
    await live(alice);

    // A segment, made with the constraint editor.
    await nav(alice).getByRole("link", { name: "Segments" }).click();
    const segmentForm = alice.getByRole("form", { name: "New segment" });
    await segmentForm.getByLabel("Name").fill("early-adopters");
    await segmentForm.getByRole("button", { name: "Add constraint" }).click();
    const byUser = segmentForm.getByRole("group", { name: "Constraint 1" });
    await byUser.getByLabel("Context field").fill("userId");
    await byUser.getByLabel("Operator").selectOption("STR_STARTS_WITH");
    await byUser.getByLabel("Values (one per line)").fill("early-");
    await checkPage(alice, "walkthrough-segment-form");
    await segmentForm.getByRole("button", { name: "Create segment" }).click();
    await alice
      .getByRole("table", { name: "All segments" })
      .getByRole("cell", { name: /^early-adopters/ })
      .waitFor();
    await checkPage(alice, "walkthrough-segments");

    // The flag, created on its project's page.
    await nav(alice).getByRole("link", { name: "Projects" }).click();
    await alice.getByRole("link", { name: "Default" }).click();
    const create = alice.getByRole("form", { name: "New feature" });
    await create.getByLabel("Feature name").fill(FLAG);
    await create.getByRole("button", { name: "Create feature" }).click();
    await alice.getByRole("link", { name: FLAG }).waitFor();
    await checkPage(alice, "walkthrough-project");
    await alice.getByRole("link", { name: FLAG }).click();

    // In development (no change requests): the gradual rollout, constrained and in the segment, and the flag on.
    const inDevelopment = await fillProRollout(alice, "development");
    await checkPage(alice, "walkthrough-constraint-editor");
    await inDevelopment.getByRole("button", { name: "Add strategy", exact: true }).click();
    const development = alice.getByRole("region", { name: /^development/ });
    await development.getByRole("list", { name: "Strategies in development" }).getByText("plan IN pro").waitFor();
    // The switch shows the stored state: it turns on when the server has answered, not on the click.
    await development.getByRole("switch", { name: "On in development" }).click();
    await development.getByRole("heading", { name: "development on" }).waitFor();
    await checkPage(alice, "walkthrough-flag-development");

    // The playground: on for a pro user, off for a free one.
    await nav(alice).getByRole("link", { name: "Playground" }).click();
    assert.is(await playground(alice, "early-pro", "pro"), "On");
    await checkPage(alice, "walkthrough-playground-pro");
    assert.is(await playground(alice, "early-free", "free"), "Off");
    await checkPage(alice, "walkthrough-playground-free");

    // Proposed for staging: the same strategy and turning it on, into alice's change request, sent for review.
    await alice.goto(`${srv.url}/projects/default/features/${FLAG}`);
    const inStaging = await fillProRollout(alice, "staging");
    await inStaging.getByRole("button", { name: "Add to my change request" }).click();
    await inStaging.getByRole("status").filter({ hasText: "Added to your change request" }).waitFor();
    const staging = alice.getByRole("region", { name: /^staging/ });
    await staging.getByRole("button", { name: "Propose turning it on" }).click();
    await alice.getByTestId("cr-state").filter({ hasText: "Draft" }).waitFor();
    await alice.getByRole("button", { name: "Send for review" }).click();
    await alice.getByTestId("cr-state").filter({ hasText: "In review" }).waitFor();
    await checkPage(alice, "walkthrough-change-request");
    const requestUrl = alice.url();

    // alice's second page, on the flag, open from here on: staging off, no strategy there yet.
    const aliceFlag = watched(await alices.newPage());
    await aliceFlag.goto(`${srv.url}/projects/default/features/${FLAG}`);
    const stagingAgain = aliceFlag.getByRole("region", { name: /^staging/ });
    await stagingAgain.locator("h2 .pill.off").waitFor();
    assert.is(await stagingAgain.getByText("plan IN pro").count(), 0);
    await live(aliceFlag);
    await markUnreloaded(aliceFlag);
    await live(alice);
    await markUnreloaded(alice);

    // bob finds it in his inbox (the count in the navigation) and approves it.
    const bobs = await newContext();
    const bob = watched(await bobs.newPage());
    await logIn(bob, srv.url, "bob", PASSWORD);
    const inbox = nav(bob).getByRole("link", { name: "Inbox 1 waiting" });
    await inbox.waitFor();
    await inbox.click();
    const waiting = bob.getByRole("table", { name: "Change requests waiting on you, oldest first" }).locator("tbody tr");
    await waiting.filter({ hasText: FLAG }).waitFor();
    await checkPage(bob, "walkthrough-inbox");
    await waiting
      .filter({ hasText: FLAG })
      .getByRole("link", { name: /^#\d+$/ })
      .click();
    await bob.getByRole("button", { name: "Approve" }).click();
    await bob.getByTestId("cr-state").filter({ hasText: "Approved" }).waitFor();
    await checkPage(bob, "walkthrough-approved");

    // alice's request page, open since she sent it, says Approved and offers the apply, and her inbox counts it: no reload.
    await alice.getByTestId("cr-state").filter({ hasText: "Approved" }).waitFor();
    await alice.getByRole("button", { name: "Apply now" }).waitFor();
    await nav(alice).getByRole("link", { name: "Inbox 1 waiting" }).waitFor();
    await stillUnreloaded(alice);
    assert.is(alice.url(), requestUrl);
    await checkPage(alice, "walkthrough-live-approved");

    // alice applies; her page on the flag shows staging on, with the strategy, without a reload.
    await alice.getByRole("button", { name: "Apply now" }).click();
    await alice.getByTestId("cr-state").filter({ hasText: "Applied" }).waitFor();
    await stagingAgain.locator("h2 .pill.on").waitFor();
    await stagingAgain.getByRole("list", { name: "Strategies in staging" }).getByText("plan IN pro").waitFor();
    await stillUnreloaded(aliceFlag);
    await checkPage(aliceFlag, "walkthrough-live-flag");

    // The real Node SDK, on staging: on for a pro early adopter, off for a free one.
    const token = await api("POST", "/api/admin/api-tokens", { tokenName: "walkthrough-sdk", type: "client", environment: "staging" });
    const unleash = new Unleash({
      url: `${srv.url}/api/`,
      appName: "walkthrough",
      customHeaders: { Authorization: token.secret },
      disableMetrics: true,
    });
    unleash.on("error", (error) => assert.unreachable(String(error)));
    try {
      await once(unleash, "synchronized");
      assert.is(unleash.isEnabled(FLAG, { userId: "early-pro", properties: { plan: "pro" } }), true);
      assert.is(unleash.isEnabled(FLAG, { userId: "early-free", properties: { plan: "free" } }), false);
      assert.is(unleash.isEnabled(FLAG, { userId: "late-pro", properties: { plan: "pro" } }), false, "outside the segment");
    } finally {
      unleash.destroy();
    }
    assert.equal(problemsOf.flat(), []);
    await alices.close();
    await bobs.close();
  });
}

test.run();
