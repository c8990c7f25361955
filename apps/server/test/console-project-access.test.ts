import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPage, collectProblems, logIn, startConsoleSuite } from "./support/browser.ts";
import { TEST_PASSWORD, userWithRole } from "./support/principals.ts";

// A project's access page (docs/project-roles.md#project-access), driven in Chromium.
const { srv, browser } = await startConsoleSuite();

if (browser) {
  const root = await userWithRole(srv, "admin");
  const owner = await userWithRole(srv, "viewer", "olivia");
  const dev = await userWithRole(srv, "viewer", "dmitri");
  const db = srv.db.kysely;
  const group = await db
    .insertInto("groups")
    .values({ name: "platform", scim_id: "scim-platform" })
    .returningAll()
    .executeTakeFirstOrThrow();

  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    return { page, problems: collectProblems(page) };
  };
  const rolesOf = async (userId: number) =>
    (await db.selectFrom("role_user").select("role_id").where("project", "=", "default").where("user_id", "=", userId).execute()).map(
      (r) => r.role_id,
    );

  test("an Admin gives, changes and removes roles from the project's access page", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, root.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default`);
    await page.getByRole("link", { name: "Access" }).click();
    await page.getByRole("heading", { name: "Access to default" }).waitFor();
    await page.getByText("Nobody holds a role here").waitFor();

    const form = page.getByRole("form", { name: "Give a role" });
    await form.getByRole("combobox", { name: /^User/ }).selectOption({ label: "olivia" });
    await form.getByRole("combobox", { name: /^Role/ }).selectOption({ label: "Owner" });
    await form.getByRole("button", { name: "Give role" }).click();
    const table = page.getByRole("table", { name: "Users and groups with a role in this project" });
    await table
      .getByRole("row", { name: /olivia/ })
      .getByRole("cell", { name: "Owner", exact: true })
      .waitFor();
    assert.equal(await rolesOf(owner.id), [4]);

    await form.getByRole("combobox", { name: /^To a/ }).selectOption("group");
    await form.getByRole("combobox", { name: /^Group/ }).selectOption({ label: "platform (SCIM)" });
    await form.getByRole("button", { name: "Give role" }).click();
    const groupRow = table.getByRole("row", { name: /platform/ });
    await groupRow.getByRole("cell", { name: "Member", exact: true }).waitFor();
    assert.match(await groupRow.innerText(), /SCIM/);

    await groupRow.getByRole("combobox", { name: /^Role of platform/ }).selectOption({ label: "Viewer" });
    await groupRow.getByRole("cell", { name: "Viewer", exact: true }).waitFor();
    const stored = await db.selectFrom("group_role").select("role_id").where("group_id", "=", group.id).execute();
    assert.equal(
      stored.map((r) => r.role_id),
      [6],
    );
    await checkPage(page, "project-access");

    await groupRow.getByRole("button", { name: "Remove platform" }).click();
    await groupRow.waitFor({ state: "detached" });
    assert.equal(await db.selectFrom("group_role").selectAll().where("group_id", "=", group.id).execute(), []);
    assert.equal(problems, []);
  });

  test("an Owner who is no Admin manages access by user id; a Member sees the list without the forms", async () => {
    const { page, problems } = await newPage();
    await logIn(page, srv.url, owner.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/projects/default/access`);
    const form = page.getByRole("form", { name: "Give a role" });
    await form.getByRole("spinbutton", { name: /^User id/ }).fill(String(dev.id));
    await form.getByRole("combobox", { name: /^Role/ }).selectOption({ label: "Member" });
    await form.getByRole("button", { name: "Give role" }).click();
    const table = page.getByRole("table", { name: "Users and groups with a role in this project" });
    await table
      .getByRole("row", { name: /dmitri/ })
      .getByRole("cell", { name: "Member", exact: true })
      .waitFor();
    assert.equal(await rolesOf(dev.id), [5]);
    assert.equal(problems, []);

    const member = await newPage();
    await logIn(member.page, srv.url, dev.username, TEST_PASSWORD);
    await member.page.goto(`${srv.url}/projects/default/access`);
    await member.page.getByRole("row", { name: /olivia/ }).waitFor();
    assert.is(await member.page.getByRole("form", { name: "Give a role" }).count(), 0);
    assert.is(await member.page.getByRole("button", { name: /^Remove / }).count(), 0);
    await checkPage(member.page, "project-access-member");
    assert.equal(member.problems, []);
  });

  test("the users page says who SCIM manages", async () => {
    await db.updateTable("users").set({ scim_id: "scim-dmitri" }).where("id", "=", dev.id).execute();
    const { page, problems } = await newPage();
    await logIn(page, srv.url, root.username, TEST_PASSWORD);
    await page.goto(`${srv.url}/users`);
    const row = page.getByRole("row", { name: /dmitri/ });
    await row.getByRole("cell", { name: "SCIM", exact: true }).waitFor();
    assert.is(
      await page
        .getByRole("row", { name: /olivia/ })
        .getByRole("cell", { name: "SCIM", exact: true })
        .count(),
      0,
    );
    assert.equal(problems, []);
  });
}

test.run();
