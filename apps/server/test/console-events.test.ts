import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { adminToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const root = await userWithRole(srv, "admin");
  const editor = await userWithRole(srv, "editor");

  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    return { page, problems: collectProblems(page) };
  };

  test("the event log: an admin's write on top, each change viewable, older pages by `before`", async () => {
    // More than one page of the console's 50 events, and one change with a before and an after.
    for (let i = 0; i < 55; i++) {
      assert.is(
        (await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name: `flag-${i}` } })).status,
        201,
      );
    }
    const banner = await srv.call("POST", "/api/admin/banners", { headers: admin, body: { message: "Draft notice", enabled: false } });
    assert.is(banner.status, 201);
    const edited = await srv.call("PUT", `/api/admin/banners/${banner.json.id}`, {
      headers: admin,
      body: { message: "Final notice", enabled: false },
    });
    assert.is(edited.status, 200);

    const { page, problems } = await newPage();
    await logIn(page, srv.url, root.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/users`);
    const newUser = page.getByRole("form", { name: "New user" });
    await newUser.getByLabel("Username").fill("wendy");
    await newUser.getByLabel("Password").fill("wendy's password");
    await newUser.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("cell", { name: "wendy", exact: true }).waitFor();

    // By keyboard: the nav entry, then the newest event's disclosure.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Event log" }).focus();
    await page.keyboard.press("Enter");
    const log = page.getByRole("table", { name: "Every change, newest first" });
    const rows = log.locator("tbody tr");
    await rows.first().waitFor();
    const top = rows.first();
    assert.match(await top.innerText(), /user-created/);
    const newest = top.locator("summary");
    assert.match((await newest.textContent()) ?? "", /^Data of event \d+$/);
    await newest.focus();
    await page.keyboard.press("Enter");
    assert.match(await top.locator("pre").innerText(), /"username": "wendy"/);

    const bannerRow = rows.filter({ hasText: "banner-updated" });
    const bannerChange = bannerRow.locator("summary");
    assert.match(
      (await bannerChange.textContent()) ?? "",
      /^Before and after of event \d+ \(message\)$/,
      "the summary names the changed field",
    );
    await bannerChange.click();
    assert.match(await bannerRow.getByRole("figure").filter({ hasText: "Before" }).innerText(), /Draft notice/);
    assert.match(await bannerRow.getByRole("figure").filter({ hasText: "After" }).innerText(), /Final notice/);
    await checkPage(page, "events");

    const ids = async () => await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute("data-event-id"))));
    const firstPage = await ids();
    const api = await srv.call("GET", "/api/admin/events?limit=50", { headers: admin });
    assert.equal(
      firstPage,
      api.json.events.map((e: { id: number }) => e.id),
      "the first page is the API's newest 50",
    );

    await page.getByRole("button", { name: "Older events" }).click();
    await page.getByText("There are no older events.").waitFor();
    const all = await ids();
    const older = await srv.call("GET", `/api/admin/events?before=${firstPage.at(-1)}&limit=1000`, { headers: admin });
    assert.ok(older.json.events.length > 0);
    assert.equal(all, [...firstPage, ...older.json.events.map((e: { id: number }) => e.id)], "older events follow, newest first");
    assert.is(await page.getByRole("button", { name: "Older events" }).count(), 0);
    assert.equal(problems, []);
  });

  test("a non-admin is not offered the event log, and its path is not there for them", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    assert.not.ok((await page.getByRole("navigation").getByRole("link").allTextContents()).includes("Event log"));
    await page.goto(`${srv.url}/events`);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    assert.equal(problems, []);
  });
}

test.run();
