import { test } from "uvu";
import * as assert from "uvu/assert";
import { createRestClient, createTrpcClient, toVexilApiError } from "../src/index.ts";
import { ADMIN_PASSWORD, ADMIN_TOKEN, startServer } from "./support/start-server.ts";

const srv = await startServer();
const trpc = createTrpcClient({ baseUrl: srv.url, token: ADMIN_TOKEN });
const rest = createRestClient({ baseUrl: srv.url, token: ADMIN_TOKEN });

test("typed procedures over /trpc answer what REST answers", async () => {
  const created = await trpc.banners.create.mutate({ message: "over tRPC", sticky: true });
  assert.equal([created.message, created.sticky, created.variant], ["over tRPC", true, "info"]);
  const { banners } = await rest.banners.list();
  assert.equal(
    banners.find((b) => b.id === created.id),
    created,
  );

  await trpc.features.create.mutate({ projectId: "default", name: "search" });
  const path = { projectId: "default", featureName: "search", environment: "development" };
  await trpc.features.replaceVariants.mutate({ ...path, variants: [{ name: "a" }, { name: "b", weightType: "fix", weight: 100 }] });
  const viaTrpc = await trpc.features.variants.query(path);
  assert.equal(
    viaTrpc.variants.map((v) => [v.name, v.weight]),
    [
      ["a", 900],
      ["b", 100],
    ],
  );
  assert.equal(viaTrpc, await rest.features.variants(path));
});

test("a failure becomes the same VexilApiError as over REST", async () => {
  let caught: unknown;
  try {
    await trpc.features.variants.query({ projectId: "nowhere", featureName: "x", environment: "development" });
  } catch (error) {
    caught = error;
  }
  const error = toVexilApiError(caught);
  assert.ok(error, "a tRPC error carries the error body");
  assert.equal([error!.status, error!.name, error!.message], [404, "NotFoundError", 'The project "nowhere" does not exist.']);
  assert.match(error!.id, /^[0-9a-f-]{36}$/);
  assert.is(toVexilApiError(new Error("not from tRPC")), undefined);
});

test("a REST login's session works for the tRPC client", async () => {
  const user = createRestClient({ baseUrl: srv.url });
  await user.auth.login({ username: "admin", password: ADMIN_PASSWORD });
  const session = createTrpcClient({ baseUrl: srv.url, sessionCookie: user.sessionCookie });
  const { projects } = await session.projects.list.query({});
  assert.ok(projects.some((p) => p.id === "default"));
  const anonymous = createTrpcClient({ baseUrl: srv.url });
  let status: number | undefined;
  await anonymous.projects.list.query({}).catch((e) => (status = toVexilApiError(e)?.status));
  assert.is(status, 401);
});

test("procedures that take nothing are called with nothing", async () => {
  const user = createRestClient({ baseUrl: srv.url });
  await user.auth.login({ username: "admin", password: ADMIN_PASSWORD });
  const session = createTrpcClient({ baseUrl: srv.url, sessionCookie: user.sessionCookie });
  const lists = await Promise.all([
    session.projects.list.query(),
    session.environments.list.query(),
    session.banners.list.query(),
    session.users.list.query(),
    session.apiTokens.list.query(),
    session.apiTokens.listPersonal.query(),
  ]);
  assert.ok(lists[0].projects.some((p) => p.id === "default"));
  assert.ok(lists[3].users.some((u) => u.username === "admin"));
  await session.auth.logout.mutate();
  let status: number | undefined;
  await session.projects.list.query().catch((e) => (status = toVexilApiError(e)?.status));
  assert.is(status, 401, "the session ended");
});

test.after(() => srv.close());

test.run();
