import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { adminToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

// The console's playground and reviewer's inbox (docs/playground.md, docs/change-requests.md#the-reviewers-inbox).
const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const alice = await userWithRole(srv, "editor", "alice-console");
  const bob = await userWithRole(srv, "editor", "bob-console");
  const api = async (method: string, path: string, body?: unknown, headers = admin) => {
    const res = await srv.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const IN = (contextName: string, values: string[]) => ({ contextName, operator: "IN", values, inverted: false, caseInsensitive: false });

  // A gradual rollout constrained to `plan IN pro`, with a segment, on in development; change requests on in production.
  await api("POST", "/api/admin/context", { name: "plan", legalValues: [{ value: "pro" }, { value: "free" }] });
  const segment = await api("POST", "/api/admin/segments", { name: "beta-users", constraints: [IN("userId", ["u1", "u2"])] });
  const FLAG = "/api/admin/projects/default/features/new-checkout";
  await api("POST", "/api/admin/projects/default/features", { name: "new-checkout" });
  await api("POST", `${FLAG}/environments/development/strategies`, {
    name: "flexibleRollout",
    title: "Pro users",
    parameters: { rollout: "100", stickiness: "default", groupId: "new-checkout" },
    constraints: [IN("plan", ["pro"])],
    segments: [segment.id],
  });
  await api("POST", `${FLAG}/environments/development/on`, {});
  await api("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });

  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    return { page, problems: collectProblems(page) };
  };

  test("the playground: a pro user gets the flag, a free one does not, and the page says which constraint failed", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, alice.username, TEST_PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" }).click();
    const form = page.getByRole("form", { name: "Context" });
    await form.getByLabel("Evaluate in environment").selectOption("development");
    await form.getByLabel("userId").fill("u1");
    await form.getByLabel("plan").selectOption("pro");
    await form.getByRole("button", { name: "Evaluate" }).click();
    const row = page.locator('tr[data-flag="new-checkout"]');
    await row.waitFor();
    assert.is((await row.locator(".pill").first().innerText()).trim(), "On");
    const why = row.locator("summary");
    assert.match(await why.innerText(), /On: Pro users \(flexibleRollout\) holds\./);
    await why.click();
    assert.match(await row.getByRole("list", { name: "Constraints of Pro users (flexibleRollout)" }).innerText(), /passes\s+plan IN pro/);
    assert.match(await row.innerText(), /Segment beta-users: passes/);
    await checkPage(page, "playground");

    // By keyboard: the plan goes to free, and the answer follows.
    await form.getByLabel("plan").selectOption("free");
    await form.getByRole("button", { name: "Evaluate" }).focus();
    await page.keyboard.press("Enter");
    await page.locator('tr[data-flag="new-checkout"] .pill', { hasText: "Off" }).waitFor();
    assert.match(await row.locator("summary").innerText(), /Off: no strategy holds for this context\./);
    // The reason stays open across answers, as the person left it.
    if (!(await row.locator("details").evaluate((d) => (d as unknown as { open: boolean }).open))) await row.locator("summary").click();
    assert.match(await row.getByRole("list", { name: "Constraints of Pro users (flexibleRollout)" }).innerText(), /fails\s+plan IN pro/);
    await checkPage(page, "playground-off");
    assert.equal(problems, []);
  });

  test("the inbox: bob finds alice's request with its count in the navigation, approves it, and it waits on him to apply", async () => {
    const proposed = await api(
      "POST",
      "/api/admin/projects/default/environments/production/change-requests",
      { feature: "new-checkout", action: "updateEnabled", payload: { enabled: true } },
      alice.headers,
    );
    await api("PUT", `/api/admin/projects/default/change-requests/${proposed.id}/state`, { state: "In review" }, alice.headers);

    const { page, problems } = await newPage();
    await logIn(page, srv.url, bob.username, TEST_PASSWORD);
    const nav = page.getByRole("navigation", { name: "Main" });
    const inboxLink = nav.getByRole("link", { name: "Inbox 1 waiting" });
    await inboxLink.waitFor();
    await inboxLink.click();
    await page.getByRole("heading", { name: "Your inbox" }).waitFor();
    assert.equal(await nav.locator('[aria-current="page"]').allTextContents(), ["Inbox 1 waiting"], "only the inbox is the current entry");
    const table = page.getByRole("table", { name: "Change requests waiting on you, oldest first" });
    const row = table.locator("tbody tr").filter({ hasText: `#${proposed.id}` });
    await row.waitFor();
    assert.match(
      await row.innerText(),
      /production[\s\S]*new-checkout[\s\S]*In review \(0 of 1 approvals\)[\s\S]*alice-console[\s\S]*Approve/,
    );
    assert.match(await page.locator("main").innerText(), /1 to review, 0 to apply or schedule/);
    await checkPage(page, "inbox");

    await row.getByRole("link", { name: `#${proposed.id}` }).click();
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("button", { name: "Apply now" }).waitFor();
    await nav.getByRole("link", { name: /^Inbox/ }).click();
    const again = page.getByRole("table", { name: "Change requests waiting on you, oldest first" }).locator("tbody tr");
    await again.filter({ hasText: "Apply now, Schedule" }).waitFor();
    assert.match(await page.locator("main").innerText(), /0 to review, 1 to apply or schedule/);
    await checkPage(page, "inbox-to-apply");

    // "Review someone else's" no longer asks for a number: it leads here.
    await nav.getByRole("link", { name: "Change requests", exact: true }).click();
    await page.getByRole("link", { name: "your inbox" }).waitFor();
    assert.is(await page.getByLabel("Request number").count(), 0);
    assert.equal(problems, []);
  });
}

test.run();
