import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createTestDb } from "@vexil/db/testing";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken } from "./support/principals.ts";
import { type Refusal, loadSpecState, type SpecState } from "./support/specification-state.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const SPEC_DIR = join(dirname(createRequire(import.meta.url).resolve("@unleash/client-specification/package.json")), "specifications");
// 19 and 20 are the delta API: client-specification-streaming.test.ts runs them through its events.
const FILES = readdirSync(SPEC_DIR).filter((f) => /^\d\d-.*\.json$/.test(f) && !/^(19|20)-/.test(f)).sort();

interface SpecFile {
  name: string;
  state: SpecState;
  tests?: { description: string; context: Record<string, unknown>; toggleName: string; expectedResult: boolean }[];
  variantTests?: { description: string; context: Record<string, unknown>; toggleName: string; expectedResult: Record<string, unknown> }[];
}

/**
 * What the admin API refuses by its own rules (client-api 1), by file and feature: each refusal
 * is asserted, and the cases of those features are not run. Nothing else may be refused.
 */
// Variants are stored per mille (contract 3.3), and SDKs pick by the hash modulo the total, so
// weights with another total have no per-mille equivalent: sent as written, they are refused.
const weights = (w: string) => `variant weights ${w} do not add up to 1000`;
const EXPECTED_REFUSALS: Record<string, Record<string, string>> = {
  "08-variants.json": {
    "Feature.Variants.B": weights("1+1"),
    "Feature.Variants.C": weights("33+33+33"),
    "Feature.Variants.D": weights("1+49+50"),
    "Feature.Variants.override.D": weights("33+33+34"),
  },
  "12-custom-stickiness.json": { "Feature.flexible.rollout.custom.stickiness_100": weights("25+25+25+25") },
  "13-constraint-operators.json": { "F7.invalid-operator": "NOT_A_VALID_OPERATOR is not an operator" },
  "14-constraint-semver-operators.json": { "F8.invalidSemverWithLeadingV": '"v2.0.0" is not a semantic version' },
  "15-global-constraints.json": {
    "F9.withMissingSegment": "segment 404 does not exist",
    "F9.globalSegmentOn": weights("25+25+25+25"),
  },
  "16-strategy-variants.json": {
    "Feature.strategy.multiple.variants": weights("1+1"),
    "Feature.strategy.numeric.variants": weights("1+1"),
    "Feature.strategy.variants.stickiness": weights("1+1"),
  },
  "17-dependent-features.json": {
    "child.with.cycle": "a cycle of dependencies",
    "child.with.transitive.dependency": "dependencies are one level deep",
    "parents.not.exist.child.enabled": "the parent does not exist",
  },
  "18-utf8-flag-names.json": {
    "Feature.UTF-8.Hellø_Wørld": "a feature name must need no URL encoding",
    "Feature.UTF-8.😊_φriend_你好_🌍": "a feature name must need no URL encoding",
  },
  "21-regex-constraint-operators.json": {
    "invalid-regex-defaults-to-false": '"(regex" does not compile',
    "R90.reject_lookahead": "RE2 has no lookahead",
    "R91.reject_backreference": "RE2 has no back-references",
  },
  "22-cidr-constraint-operators.json": {
    "CIDR.mixed.values": '"127.invalid" is not an address or a range',
    "CIDR.invalid.only": '"127.invalid" is not an address or a range',
    "CIDR.ipv6.mixed.values": '"bad::cidr" is not an address or a range',
  },
};

/** The features whose cases cannot mean what the file says: refused ones, and children of refused parents. */
function unservable(file: SpecFile, refused: Set<string>): Set<string> {
  const out = new Set(refused);
  for (const f of file.state.features) if (f.dependencies?.some((d) => out.has(d.feature))) out.add(f.name);
  return out;
}

async function runFile(srv: TestServer, admin: Record<string, string>, fileName: string, index: number) {
  const file = JSON.parse(readFileSync(join(SPEC_DIR, fileName), "utf8")) as SpecFile;
  const project = `spec-${index}`;
  const call = (method: string, path: string, body?: unknown) => srv.call(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
  assert.is((await call("POST", "/api/admin/projects", { id: project, name: file.name })).status, 201);
  assert.is((await call("POST", `/api/admin/projects/${project}/environments`, { environment: "development" })).status, 200);
  const refusals = await loadSpecState(call, project, "development", file.state);
  const token = await call("POST", "/api/admin/api-tokens", { tokenName: project, type: "client", projects: [project], environment: "development" });
  assert.is(token.status, 201);

  const unleash = new Unleash({
    url: `${srv.url}/api/`,
    appName: `client-specification-${index}`,
    customHeaders: { Authorization: token.json.secret },
    disableMetrics: true,
    refreshInterval: 60_000,
  });
  const errors: unknown[] = [];
  unleash.on("error", (error) => errors.push(error));
  await once(unleash, "synchronized");
  const skipped = unservable(file, new Set(refusals.map((r) => r.feature)));
  let passed = 0;
  const failed: string[] = [];
  const refusedCases: string[] = [];
  try {
    for (const t of file.tests ?? []) {
      if (skipped.has(t.toggleName)) {
        refusedCases.push(t.description);
        continue;
      }
      const got = unleash.isEnabled(t.toggleName, t.context as never);
      if (got === t.expectedResult) passed++;
      else failed.push(`${t.description}: expected ${t.expectedResult}, got ${got}`);
    }
    for (const t of file.variantTests ?? []) {
      if (skipped.has(t.toggleName)) {
        refusedCases.push(t.description);
        continue;
      }
      const variant = unleash.getVariant(t.toggleName, t.context as never) as unknown as Record<string, unknown>;
      const got = Object.fromEntries(Object.keys(t.expectedResult).map((k) => [k, variant[k === "feature_enabled" ? "feature_enabled" : k]]));
      if (JSON.stringify(got) === JSON.stringify(t.expectedResult)) passed++;
      else failed.push(`${t.description}: expected ${JSON.stringify(t.expectedResult)}, got ${JSON.stringify(variant)}`);
    }
  } finally {
    unleash.destroy();
  }
  return { file, refusals, passed, failed, refusedCases, errors };
}

const kinds = process.env.TEST_DATABASE_URL ? (["postgres", "embedded"] as const) : (["embedded"] as const);

for (const kind of kinds) {
  test(`every case of every specification file passes through the real SDK, or its state is refused by a rule (${kind})`, async () => {
    const report: string[] = [];
    const problems: string[] = [];
    let srv: TestServer | undefined;
    let names = new Set<string>();
    let admin: Record<string, string> = {};
    try {
      for (const [i, fileName] of FILES.entries()) {
        const state = (JSON.parse(readFileSync(join(SPEC_DIR, fileName), "utf8")) as SpecFile).state;
        // Feature names are unique per server: a file that reuses one gets a server of its own.
        if (!srv || state.features.some((f) => names.has(f.name))) {
          await srv?.close();
          srv = await startTestServer({}, { db: await createTestDb(kind === "embedded" ? {} : process.env) });
          admin = await adminToken(srv);
          names = new Set();
        }
        for (const f of state.features) names.add(f.name);
        const result = await runFile(srv, admin, fileName, i);
        const expected = EXPECTED_REFUSALS[fileName] ?? {};
        const refusedFeatures = [...new Set(result.refusals.map((r) => r.feature))].sort();
        if (JSON.stringify(refusedFeatures) !== JSON.stringify(Object.keys(expected).sort())) {
          problems.push(`${fileName}: refused ${JSON.stringify(result.refusals)}; expected refusals of ${JSON.stringify(Object.keys(expected))}`);
        }
        for (const r of result.refusals) {
          if (r.status !== 400 || r.name !== "ValidationError") problems.push(`${fileName}: ${r.feature} refused with ${r.status} ${r.name}`);
        }
        for (const f of result.failed) problems.push(`${fileName}: ${f}`);
        if (result.errors.length) problems.push(`${fileName}: the SDK reported ${result.errors.map(String).join("; ")}`);
        const why = Object.entries(expected).map(([feature, reason]) => `${feature} (${reason})`).join(", ");
        report.push(`${fileName}: ${result.passed} passed, ${result.refusedCases.length} refused${why ? `: ${why}` : ""}${result.failed.length ? `, ${result.failed.length} FAILED` : ""}`);
      }
    } finally {
      await srv?.close();
      console.log(`client specification on ${kind}:\n  ${report.join("\n  ")}`);
    }
    assert.equal(problems, []);
  });
}

test.run();
