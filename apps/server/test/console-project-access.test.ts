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

  test("the flag pages offer write controls by the role in the project, as the server says", async () => {
    // dmitri is a root Viewer and a Member of default (above); erin a root Editor who is only a Viewer of default.
    const erin = await userWithRole(srv, "editor", "erin");
    const asRoot = (method: string, path: string, body: unknown) => srv.call(method, path, { headers: root.headers, body });
    assert.is((await asRoot("POST", "/api/admin/projects/default/role/6/access", { users: [{ id: erin.id }] })).status, 200);
    assert.is((await asRoot("POST", "/api/admin/projects/default/features", { name: "by-role" })).status, 201);

    const member = await newPage();
    await logIn(member.page, srv.url, dev.username, TEST_PASSWORD);
    await member.page.goto(`${srv.url}/projects/default`);
    const create = member.page.getByRole("form", { name: "New feature" });
    await create.getByLabel("Feature name").fill("member-made");
    await create.getByRole("button", { name: "Create feature" }).click();
    await member.page.getByRole("link", { name: "member-made" }).waitFor();
    assert.ok(await db.selectFrom("features").select("name").where("name", "=", "member-made").executeTakeFirst());
    await member.page.goto(`${srv.url}/projects/default/features/by-role`);
    const strategy = member.page.getByRole("form", { name: "New strategy in development" });
    await strategy.getByRole("button", { name: "Add strategy" }).click();
    await member.page.getByRole("list", { name: "Strategies in development" }).getByRole("listitem").first().waitFor();
    const stored = await db.selectFrom("feature_strategies").select("name").where("feature_name", "=", "by-role").execute();
    assert.equal(
      stored.map((r) => r.name),
      ["default"],
    );
    assert.equal(member.problems, []);

    const viewer = await newPage();
    await logIn(viewer.page, srv.url, erin.username, TEST_PASSWORD);
    await viewer.page.goto(`${srv.url}/projects/default`);
    await viewer.page.getByText("You can read this project's flags, not change them.").waitFor();
    assert.is(await viewer.page.getByRole("form", { name: "New feature" }).count(), 0);
    assert.is(await viewer.page.getByRole("button", { name: /^Archive / }).count(), 0);
    await viewer.page.goto(`${srv.url}/projects/default/features/by-role`);
    await viewer.page.getByText("You can read this project's flags, not change them.").waitFor();
    assert.is(await viewer.page.getByRole("form", { name: /^New strategy/ }).count(), 0);
    assert.is(await viewer.page.getByRole("button", { name: /Add|Remove|Save|Propose/ }).count(), 0);
    assert.is(await viewer.page.getByRole("switch").count(), 0);
    await checkPage(viewer.page, "feature-project-viewer");
    assert.equal(viewer.problems, []);
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
  test("the groups page lists the groups, their members, and which SCIM manages", async () => {
    await db.insertInto("group_users").values({ group_id: group.id, user_id: dev.id }).execute();
    await db.insertInto("groups").values({ name: "team-web", created_by: "oidc" }).execute();
    const { page, problems } = await newPage();
    await logIn(page, srv.url, root.username, TEST_PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Groups" }).click();
    const table = page.getByRole("table", { name: "Every group, by name" });
    const platform = table.getByRole("row", { name: /platform/ });
    await platform.getByRole("cell", { name: "Managed by SCIM", exact: true }).waitFor();
    assert.match(await platform.innerText(), /dmitri/);
    await table
      .getByRole("row", { name: /team-web/ })
      .getByRole("cell", { name: "Single sign-on", exact: true })
      .waitFor();
    await checkPage(page, "groups");
    assert.equal(problems, []);

    // Not an Admin: no Groups in the navigation, and no page.
    const member = await newPage();
    await logIn(member.page, srv.url, dev.username, TEST_PASSWORD);
    await member.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" }).waitFor();
    assert.is(await member.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Groups" }).count(), 0);
    assert.equal(member.problems, []);
  });
}

test.run();
