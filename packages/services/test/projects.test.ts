import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createEnvironment,
  createProject,
  enableEnvironmentInProject,
  listEnvironments,
  listProjects,
  NameExistsError,
  NotFoundError,
  type Principal,
  ValidationError,
} from "../src/index.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db } = testDb;
const alice: Principal = { kind: "user", userId: 7, username: "alice", rootRole: 1, via: "session" };

const eventsOf = (type: string) => db.selectFrom("events").selectAll().where("type", "=", type).orderBy("id").execute();

const BAD_NAMES = ["", ".", "..", "has space", "slash/inside", "é", "a?b", "x".repeat(101)];

test("createProject stores the project and its event in the transaction", async () => {
  const project = await createProject(db, alice, { id: "web", name: "Web shop", description: "The shop" });
  assert.equal({ ...project, createdAt: undefined }, { id: "web", name: "Web shop", description: "The shop", createdAt: undefined });
  assert.instance(project.createdAt, Date);
  const [event] = await eventsOf("project-created");
  assert.equal([event?.created_by, event?.created_by_user_id, event?.project], ["alice", 7, "web"]);
  assert.equal(event?.data, JSON.parse(JSON.stringify(project)));
  const listed = await listProjects(db);
  assert.equal(
    listed.map((p) => p.id),
    ["default", "web"],
  );
});

test("createProject: a taken id is NameExistsError and writes nothing", async () => {
  const before = (await eventsOf("project-created")).length;
  const error = await rejects(createProject(db, alice, { id: "default", name: "Again" }), NameExistsError);
  assert.match(error.message, /"default" already exists/);
  assert.is((await eventsOf("project-created")).length, before);
  assert.is((await listProjects(db)).find((p) => p.id === "default")?.name, "Default");
});

test("createProject: ids must be URL-safe names of 1-100 characters; the name must not be empty", async () => {
  for (const id of BAD_NAMES) {
    const error = await rejects(createProject(db, alice, { id, name: "x" }), ValidationError);
    assert.equal(
      error.details.map((d) => d.path),
      ["id"],
      JSON.stringify(id),
    );
  }
  await rejects(createProject(db, alice, { id: "ok", name: "  " }), ValidationError);
  assert.ok(await createProject(db, alice, { id: "A-b_c.d~e!*'()", name: "odd but URL-safe" }));
  assert.ok(await createProject(db, alice, { id: "y".repeat(100), name: "long" }));
  assert.not.ok((await listProjects(db)).some((p) => p.id === "ok"));
});

test("createEnvironment stores the environment and its event; duplicates and bad names are refused", async () => {
  const env = await createEnvironment(db, alice, { name: "staging", type: "test", sortOrder: 150 });
  assert.equal([env.name, env.type, env.sortOrder], ["staging", "test", 150]);
  const defaulted = await createEnvironment(db, alice, { name: "qa", type: "test" });
  assert.is(defaulted.sortOrder, 0);
  assert.equal(
    (await listEnvironments(db)).map((e) => e.name),
    ["qa", "development", "staging", "production"],
  );
  const [event] = await eventsOf("environment-created");
  assert.equal([event?.environment, event?.data], ["staging", JSON.parse(JSON.stringify(env))]);

  await rejects(createEnvironment(db, alice, { name: "production", type: "production" }), NameExistsError);
  for (const name of BAD_NAMES) {
    const error = await rejects(createEnvironment(db, alice, { name, type: "test" }), ValidationError);
    assert.equal(
      error.details.map((d) => d.path),
      ["name"],
    );
  }
  await rejects(createEnvironment(db, alice, { name: "empty-type", type: "" }), ValidationError);
  assert.is((await eventsOf("environment-created")).length, 2);
});

test("enableEnvironmentInProject links them once, with an event; unknown ones are NotFoundError", async () => {
  await createProject(db, alice, { id: "mobile", name: "Mobile" });
  await enableEnvironmentInProject(db, alice, { projectId: "mobile", environment: "production" });
  const links = await db.selectFrom("project_environments").selectAll().where("project_id", "=", "mobile").execute();
  assert.equal(links, [{ project_id: "mobile", environment_name: "production" }]);
  const [event] = await eventsOf("project-environment-added");
  assert.equal(
    [event?.project, event?.environment, event?.data],
    ["mobile", "production", { projectId: "mobile", environment: "production" }],
  );

  const again = await rejects(enableEnvironmentInProject(db, alice, { projectId: "mobile", environment: "production" }), NameExistsError);
  assert.match(again.message, /already enabled/);
  const noProject = await rejects(enableEnvironmentInProject(db, alice, { projectId: "nope", environment: "production" }), NotFoundError);
  assert.is(noProject.message, 'The project "nope" does not exist.');
  const noEnv = await rejects(enableEnvironmentInProject(db, alice, { projectId: "mobile", environment: "nowhere" }), NotFoundError);
  assert.is(noEnv.message, 'The environment "nowhere" does not exist.');
  assert.is((await eventsOf("project-environment-added")).length, 1);
});

test.after(() => testDb.close());

test.run();
