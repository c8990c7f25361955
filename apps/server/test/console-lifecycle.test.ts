import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { adminToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";

const { srv, browser } = await startConsoleSuite();

if (browser) {
  const admin = await adminToken(srv);
  const editor = await userWithRole(srv, "editor");
  const adminUser = await userWithRole(srv, "admin");
  const FEATURES = "/api/admin/projects/default/features";
  const create = async (name: string, body: Record<string, unknown> = {}) =>
    assert.is((await srv.call("POST", FEATURES, { headers: admin, body: { name, ...body } })).status, 201);
  const stored = async (name: string) => (await srv.call("GET", `${FEATURES}/${name}`, { headers: admin })).json;
  const archivedNames = async () =>
    (
      (await srv.call("GET", "/api/admin/search/features?project=IS:default&archived=IS:true", { headers: admin })).json.features as {
        name: string;
      }[]
    ).map((f) => f.name);

  await create("grid-checkout", { description: "The new checkout", type: "release" });
  await create("grid-kill", { type: "kill-switch" });
  await create("grid-experiment", { type: "experiment" });
  assert.is((await srv.call("POST", `${FEATURES}/grid-checkout/environments/development/on`, { headers: admin })).status, 200);
  assert.is(
    (await srv.call("POST", "/api/admin/features/grid-checkout/tags", { headers: admin, body: { type: "simple", value: "payments" } }))
      .status,
    201,
  );
  assert.is(
    (await srv.call("POST", "/api/admin/projects/default/stale", { headers: admin, body: { features: ["grid-kill"], stale: true } }))
      .status,
    202,
  );

  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    return { page, problems: collectProblems(page) };
  };
  const rowOf = (page: Awaited<ReturnType<typeof newPage>>["page"], name: string) =>
    page
      .getByRole("table", { name: /^Flags/ })
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name, exact: true }) });

  test("the grid shows each flag by environment with its type, tags and stale badge; search and filters narrow it", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default`);
    const checkout = rowOf(page, "grid-checkout");
    await checkout.waitFor();
    const cells = await checkout.getByRole("cell").allInnerTexts();
    assert.ok(cells.includes("release"), cells.join("|"));
    assert.ok(
      cells.some((c) => c.includes("payments")),
      "the tag",
    );
    assert.ok(cells.includes("never"), "never seen by an SDK");
    const headers = await page
      .getByRole("table", { name: /^Flags/ })
      .getByRole("columnheader")
      .allInnerTexts();
    const development = headers.indexOf("development");
    assert.ok(development > 0, headers.join("|"));
    assert.is(cells[development], "on");
    assert.is(cells[headers.indexOf("production")], "off");
    assert.match(await rowOf(page, "grid-kill").innerText(), /stale/);
    assert.not.match(await checkout.innerText(), /stale/);

    const search = page.getByRole("search", { name: "Search flags" });
    await search.getByLabel("Search").fill("new checkout");
    await page.getByRole("table", { name: "Flags (1)" }).waitFor();
    assert.is(await rowOf(page, "grid-checkout").count(), 1);
    await search.getByLabel("Search").fill("");
    await search.getByLabel("Type").selectOption("kill-switch");
    await page.getByRole("table", { name: "Flags (1)" }).waitFor();
    assert.is(await rowOf(page, "grid-kill").count(), 1);
    await search.getByLabel("Type").selectOption("");
    await search.getByLabel("State").selectOption("stale");
    await page.getByRole("table", { name: "Flags (1)" }).waitFor();
    assert.is(await rowOf(page, "grid-kill").count(), 1);
    await search.getByLabel("State").selectOption("");
    await search.getByLabel("Tag").fill("payments");
    await page.getByRole("table", { name: "Flags (1)" }).waitFor();
    assert.is(await rowOf(page, "grid-checkout").count(), 1);
    await checkPage(page, "flag-grid");
    assert.equal(problems, []);
  });

  test("archiving from the grid serves the flag to nobody, and Undo brings it back", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default`);
    await rowOf(page, "grid-experiment").getByRole("button", { name: "Archive grid-experiment" }).click();
    await page.getByRole("status").getByText("Archived grid-experiment").waitFor();
    await rowOf(page, "grid-experiment").waitFor({ state: "detached" });
    assert.ok((await archivedNames()).includes("grid-experiment"));
    await page.getByRole("status").getByRole("button", { name: "Undo" }).click();
    await rowOf(page, "grid-experiment").waitFor();
    assert.not.ok((await archivedNames()).includes("grid-experiment"));
    assert.equal(problems, []);
  });

  test("the archive page revives a flag and deletes one for good", async () => {
    await create("grid-old");
    await create("grid-older");
    for (const name of ["grid-old", "grid-older"]) {
      assert.is((await srv.call("DELETE", `${FEATURES}/${name}`, { headers: admin })).status, 202);
    }
    const { page, problems } = await newPage();
    await logIn(page, srv.url, adminUser.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/archive`);
    const table = page.getByRole("table", { name: /^Archived flags/ });
    await table.getByRole("cell", { name: "grid-old", exact: true }).waitFor();
    await checkPage(page, "archive");
    await table.getByRole("button", { name: "Revive grid-old", exact: true }).click();
    await table.getByRole("cell", { name: "grid-old", exact: true }).waitFor({ state: "detached" });
    assert.is((await stored("grid-old")).name, "grid-old");
    page.once("dialog", (dialog) => dialog.accept());
    await table.getByRole("button", { name: "Delete grid-older", exact: true }).click();
    await table.getByRole("cell", { name: "grid-older", exact: true }).waitFor({ state: "detached" });
    assert.is((await srv.call("GET", `${FEATURES}/grid-older`, { headers: admin })).status, 404);
    assert.not.ok((await archivedNames()).includes("grid-older"));
    assert.equal(problems, []);
  });

  test("a flag's page shows its type and lifetime, switches stale, and adds and removes tags", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, editor.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/features/grid-checkout`);
    const about = page.getByRole("region", { name: "About this flag" });
    await about.getByText("expected to live 40 days").waitFor();
    const stale = about.getByRole("switch", { name: "Stale" });
    assert.is(await stale.isChecked(), false);
    await stale.click();
    await about.getByText("stale", { exact: true }).waitFor();
    assert.is((await stored("grid-checkout")).stale, true);
    await stale.click();
    await about.getByText("stale", { exact: true }).waitFor({ state: "detached" });
    assert.is((await stored("grid-checkout")).stale, false);

    const form = about.getByRole("form", { name: "Add a tag" });
    await form.getByLabel("Tag").fill("simple:checkout-team");
    await form.getByRole("button", { name: "Add tag" }).click();
    const tags = about.getByRole("list", { name: "Tags" });
    await tags.getByText("simple:checkout-team").waitFor();
    const listed = async () =>
      ((await srv.call("GET", "/api/admin/features/grid-checkout/tags", { headers: admin })).json.tags as { value: string }[])
        .map((t) => t.value)
        .sort();
    assert.equal(await listed(), ["checkout-team", "payments"]);
    await tags.getByRole("button", { name: "Remove tag simple:payments" }).click();
    await tags.getByText("simple:payments").waitFor({ state: "detached" });
    assert.equal(await listed(), ["checkout-team"]);
    await checkPage(page, "feature-daily-life");
    assert.equal(problems, []);
  });
}

test.run();
