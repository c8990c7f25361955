import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestDb } from "@vexil/db/testing";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken } from "./support/principals.ts";
import { sdkChangedUntil } from "./support/sdk-changed-until.ts";
import { SPEC_DIR } from "./support/specification-files.ts";
import { loadSpecState, type SpecState } from "./support/specification-state.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// Client specification 19 and 20 are the delta API: a hydration, then events. Their states are
// created through the admin API, the first before the SDK starts, the second event by event while
// it streams (or polls the delta route), each step waited for on the SDK's `changed` event.

type SpecFeature = SpecState["features"][number];
type SpecSegment = NonNullable<SpecState["segments"]>[number] & { name?: string };
type SpecEvent =
  | { type: "hydration"; features: SpecFeature[]; segments: SpecSegment[] }
  | { type: "feature-updated"; feature: SpecFeature }
  | { type: "feature-removed"; featureName: string }
  | { type: "segment-updated"; segment: SpecSegment }
  | { type: "segment-removed"; segmentId: number };
interface SpecFile {
  name: string;
  state: { events: SpecEvent[] };
  tests?: { description: string; context: Record<string, unknown>; toggleName: string; expectedResult: boolean }[];
  variantTests?: { description: string; context: Record<string, unknown>; toggleName: string; expectedResult: Record<string, unknown> }[];
}

const MODES = { streaming: { type: "streaming" }, delta: { type: "polling", format: "delta" } } as const;

async function runFile(srv: TestServer, admin: Record<string, string>, fileName: string, mode: keyof typeof MODES, index: number) {
  const file = JSON.parse(readFileSync(join(SPEC_DIR, fileName), "utf8")) as SpecFile;
  const project = `delta-${index}`;
  const call = (method: string, path: string, body?: unknown) =>
    srv.call(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
  assert.is((await call("POST", "/api/admin/projects", { id: project, name: file.name })).status, 201);
  assert.is((await call("POST", `/api/admin/projects/${project}/environments`, { environment: "development" })).status, 200);
  const token = await call("POST", "/api/admin/api-tokens", {
    tokenName: project,
    type: "client",
    projects: [project],
    environment: "development",
  });
  assert.is(token.status, 201);
  const segmentIds = new Map<number, number>();
  const load = async (state: SpecState) =>
    assert.equal(await loadSpecState(call, project, "development", state, segmentIds), [], "nothing refused");

  const [first, ...rest] = file.state.events;
  // A file that starts from a hydration has it in place before the SDK connects.
  if (first?.type === "hydration") await load({ features: first.features, segments: first.segments });
  const unleash = new Unleash({
    url: `${srv.url}/api/`,
    appName: `delta-specification-${index}`,
    customHeaders: { Authorization: token.json.secret },
    disableMetrics: true,
    refreshInterval: 50,
    experimentalMode: MODES[mode],
  });
  const errors: unknown[] = [];
  unleash.on("error", (error) => errors.push(error));
  try {
    await once(unleash, "synchronized");
    for (const event of first?.type === "hydration" ? rest : file.state.events) {
      const definition = (name: string) => unleash.getFeatureToggleDefinition(name);
      switch (event.type) {
        case "feature-updated":
          await load({ features: [event.feature] });
          await sdkChangedUntil(
            unleash,
            () =>
              definition(event.feature.name)?.strategies?.length === (event.feature.strategies ?? []).length &&
              definition(event.feature.name)?.enabled === event.feature.enabled,
            `${event.feature.name} updated`,
          );
          break;
        case "feature-removed":
          // The admin API has no feature archive yet: the feature goes as an archive would take it.
          await srv.db.kysely.deleteFrom("features").where("name", "=", event.featureName).execute();
          await sdkChangedUntil(unleash, () => definition(event.featureName) === undefined, `${event.featureName} removed`);
          break;
        case "segment-updated":
          // A segment reaches SDKs with the first strategy that uses it (segments nobody uses are not served).
          await load({ features: [], segments: [event.segment] });
          break;
        default:
          throw new Error(`no step for ${event.type}`);
      }
    }
    const failed: string[] = [];
    let passed = 0;
    for (const t of file.tests ?? []) {
      const got = unleash.isEnabled(t.toggleName, t.context as never);
      if (got === t.expectedResult) passed++;
      else failed.push(`${t.description}: expected ${t.expectedResult}, got ${got}`);
    }
    for (const t of file.variantTests ?? []) {
      const variant = unleash.getVariant(t.toggleName, t.context as never) as unknown as Record<string, unknown>;
      const got = Object.fromEntries(Object.keys(t.expectedResult).map((k) => [k, variant[k]]));
      if (JSON.stringify(got) === JSON.stringify(t.expectedResult)) passed++;
      else failed.push(`${t.description}: expected ${JSON.stringify(t.expectedResult)}, got ${JSON.stringify(variant)}`);
    }
    // The SDK read the route of its mode, and never the full feature list.
    const urls = srv.logs.filter((l) => l.msg === "request").map((l) => String(l.url).split("?")[0]);
    if (mode === "delta") assert.ok(urls.includes("/api/client/delta"), "the SDK polled /api/client/delta");
    else assert.is(srv.app.deps.clientStreams?.size, 1, "the SDK holds a stream open");
    assert.not.ok(urls.includes("/api/client/features"), "the SDK never fell back to /api/client/features");
    return { passed, failed, errors, cases: (file.tests?.length ?? 0) + (file.variantTests?.length ?? 0) };
  } finally {
    unleash.destroy();
  }
}

const kinds = process.env.TEST_DATABASE_URL ? (["postgres", "embedded"] as const) : (["embedded"] as const);

for (const kind of kinds) {
  test(`client specification 19 and 20 through the real SDK, streaming and polling the delta route (${kind})`, async () => {
    const report: string[] = [];
    const problems: string[] = [];
    let srv: TestServer | undefined;
    try {
      let index = 0;
      for (const fileName of ["19-delta-api-hydration.json", "20-delta-api-events.json"]) {
        for (const mode of Object.keys(MODES) as (keyof typeof MODES)[]) {
          // Feature names are unique per server: each run gets a server of its own.
          await srv?.close();
          srv = await startTestServer({}, { db: await createTestDb(kind === "embedded" ? {} : process.env) });
          const result = await runFile(srv, await adminToken(srv), fileName, mode, index++);
          for (const f of result.failed) problems.push(`${fileName} (${mode}): ${f}`);
          if (result.errors.length) problems.push(`${fileName} (${mode}): the SDK reported ${result.errors.map(String).join("; ")}`);
          if (result.cases === 0) problems.push(`${fileName}: no cases`);
          report.push(`${fileName} (${mode}): ${result.passed}/${result.cases} passed`);
        }
      }
    } finally {
      await srv?.close();
      console.log(`delta specification on ${kind}:\n  ${report.join("\n  ")}`);
    }
    assert.equal(problems, []);
  });
}

test.run();
