import { createApiToken } from "@vexil/services";
import { createTestDb, type TestDb } from "@vexil/db/testing";
import type { Context, Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { until } from "./support/eventually.ts";
import { peerSdk } from "./support/peer-sdk.ts";
import { runVexil } from "./support/run-cli.ts";
import { seededRandom, specContexts } from "./support/spec-contexts.ts";
import { FILES, readSpecFile } from "./support/specification-files.ts";
import { loadSpecState, type Refusal } from "./support/specification-state.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { PEER_SKIP_REASON, PEER_TESTS, startUnleashPeer, type UnleashPeer } from "./support/unleash-peer.ts";

// Every client-specification file through `vexil migrate-from-unleash` (issue 25,
// docs/migrate-from-unleash.md#checked-against-unleash-82): each file's state is written into the
// real Unleash 8.2 through its admin API, and what Unleash refuses is recorded below with its
// answer. Unleash's open-source edition has one project (no route creates another) and a feature
// name is unique in it, so the files go in turns: as many files at once as their names allow, all
// in `default`, Unleash emptied between turns. Each turn is migrated into a fresh Vexil database
// (a second run changes nothing), then one Node SDK per server, each with a client token of
// `default` in `development`, answers generated contexts on every flag of every file of the turn:
// all alike (isEnabled and getVariant), but the flags Vexil's rules refuse, recorded below with
// the migration's message.
const TITLE = "peer migrate specification";
/** Generated contexts per file, each evaluated on every flag of the file; VEXIL_PEER_CONTEXTS changes it. */
const CONTEXTS = Number(process.env.VEXIL_PEER_CONTEXTS ?? 10_000);
const APP_NAME = "peer-migrate-specification";
const PROJECT = "default";

/** Unleash 8.2's answers to the writes it refuses, by file and feature: "METHOD path: status name: message". */
const REFUSED_BY_UNLEASH: Record<string, Record<string, string[]>> = {
  "02-user-with-id-strategy.json": {
    "Feature.A2": [
      "POST .../Feature.A2/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name userWithId",
    ],
    "Feature.B2": [
      "POST .../Feature.B2/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name userWithId",
    ],
    "Feature.C2": [
      "POST .../Feature.C2/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name userWithId",
    ],
    "Feature.D2": [
      "POST .../Feature.D2/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name userWithId",
    ],
  },
  "03-gradual-rollout-user-id-strategy.json": {
    "Feature.A3": [
      "POST .../Feature.A3/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutUserId",
    ],
    "Feature.B3": [
      "POST .../Feature.B3/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutUserId",
    ],
    "Feature.C3": [
      "POST .../Feature.C3/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutUserId",
    ],
    "Feature.D3": [
      "POST .../Feature.D3/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutUserId",
    ],
  },
  "04-gradual-rollout-session-id-strategy.json": {
    "Feature.A4": [
      "POST .../Feature.A4/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutSessionId",
    ],
    "Feature.B4": [
      "POST .../Feature.B4/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutSessionId",
    ],
    "Feature.C4": [
      "POST .../Feature.C4/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutSessionId",
    ],
    "Feature.D4": [
      "POST .../Feature.D4/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutSessionId",
    ],
  },
  "05-gradual-rollout-random-strategy.json": {
    "Feature.A5": [
      "POST .../Feature.A5/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
    ],
    "Feature.B5": [
      "POST .../Feature.B5/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
    ],
    "Feature.C5": [
      "POST .../Feature.C5/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
    ],
    "Feature.D5": [
      "POST .../Feature.D5/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
    ],
  },
  "07-multiple-strategies.json": {
    "Feature.multiStrategies.A": [
      "POST .../Feature.multiStrategies.A/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
    ],
    "Feature.multiStrategies.B": [
      "POST .../Feature.multiStrategies.B/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
      "POST .../Feature.multiStrategies.B/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name userWithId",
    ],
    "Feature.multiStrategies.C": [
      "POST .../Feature.multiStrategies.C/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
      "POST .../Feature.multiStrategies.C/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name userWithId",
      "POST .../Feature.multiStrategies.C/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name gradualRolloutRandom",
    ],
  },
  "08-variants.json": {
    "Feature.Variants.B": [
      'PUT .../Feature.Variants.B/environments/development/variants: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
    "Feature.Variants.C": [
      'PUT .../Feature.Variants.C/environments/development/variants: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
    "Feature.Variants.D": [
      'PUT .../Feature.Variants.D/environments/development/variants: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
    "Feature.Variants.override.D": [
      'PUT .../Feature.Variants.override.D/environments/development/variants: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
  },
  "09-strategy-constraints.json": {
    "Feature.constraints.userWithId": [
      "POST .../Feature.constraints.userWithId/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: Could not find strategy type with name userWithId",
    ],
    "Feature.constraints.empty": [
      'POST .../Feature.constraints.empty/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. ("value" must contain at least 1 items. You provided [].)',
    ],
    "Feature.constraints.empty-not-in": [
      'POST .../Feature.constraints.empty-not-in/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. ("value" must contain at least 1 items. You provided [].)',
    ],
  },
  "11-strategy-constraints-edge-cases.json": {
    "Feature.constraints.no_values": [
      'POST .../Feature.constraints.no_values/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. ("value" must contain at least 1 items. You provided [].)',
    ],
    "Feature.constraints.no_values_NOT_IN": [
      'POST .../Feature.constraints.no_values_NOT_IN/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. ("value" must contain at least 1 items. You provided [].)',
    ],
  },
  "12-custom-stickiness.json": {
    "Feature.flexible.rollout.custom.stickiness_100": [
      'PUT .../Feature.flexible.rollout.custom.stickiness_100/environments/development/variants: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
  },
  "13-constraint-operators.json": {
    "F7.invalid-operator": [
      'POST .../F7.invalid-operator/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "NOT_A_VALID_OPERATOR", which is not valid. Please use one of the allowed values instead..)',
    ],
  },
  "14-constraint-semver-operators.json": {
    "F8.invalidSemverWithLeadingV": [
      "POST .../F8.invalidSemverWithLeadingV/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: the provided value is not a valid semver format. The value provided was: v2.0.0",
    ],
  },
  "15-global-constraints.json": {
    "F9.globalSegmentOn": [
      'PUT .../F9.globalSegmentOn/environments/development/variants: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
    "F9.withMissingSegment": [
      'POST .../F9.withMissingSegment/environments/development/strategies: 404 NotFoundError: No segment exists with ID "404"',
    ],
  },
  "16-strategy-variants.json": {
    "Feature.strategy.multiple.variants": [
      'POST .../Feature.strategy.multiple.variants/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
    "Feature.strategy.numeric.variants": [
      'POST .../Feature.strategy.numeric.variants/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
    "Feature.strategy.variants.stickiness": [
      'POST .../Feature.strategy.variants.stickiness/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: There must be at least one "variable" variant',
    ],
  },
  "17-dependent-features.json": {
    "parents.not.exist.child.enabled": [
      "POST .../parents.not.exist.child.enabled/dependencies: 403 InvalidOperationError: No active feature parent.not.exist exists",
    ],
    "child.with.cycle": [
      "POST .../child.with.cycle/dependencies: 403 InvalidOperationError: Transitive dependency detected. Cannot add a dependency to the feature that other features depend on.",
    ],
    "child.with.transitive.dependency": [
      "POST .../child.with.transitive.dependency/dependencies: 403 InvalidOperationError: Transitive dependency detected. Cannot add a dependency to the feature that has parent dependency.",
    ],
  },
  "18-utf8-flag-names.json": {
    "Feature.UTF-8.Hellø_Wørld": [
      'POST /api/admin/projects/default/features: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. ("name" must be URL friendly. You provided "Feature.UTF-8.Hellø_Wørld".)',
    ],
    "Feature.UTF-8.😊_φriend_你好_🌍": [
      'POST /api/admin/projects/default/features: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. ("name" must be URL friendly. You provided "Feature.UTF-8.😊_φriend_你好_🌍".)',
    ],
  },
  "21-regex-constraint-operators.json": {
    "invalid-regex-defaults-to-false": [
      "POST .../invalid-regex-defaults-to-false/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: the provided value is not a valid regex string. Error: error parsing regexp: missing closing ): `(regex`",
    ],
    "Inverted.constraint": [
      "POST .../Inverted.constraint/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: REGEX operator cannot be inverted.",
    ],
    "R90.reject_lookahead": [
      "POST .../R90.reject_lookahead/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: the provided value is not a valid regex string. Error: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    ],
    "R91.reject_backreference": [
      "POST .../R91.reject_backreference/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data: the provided value is not a valid regex string. Error: error parsing regexp: invalid escape sequence: `\\1`",
    ],
  },
  "22-cidr-constraint-operators.json": {
    "CIDR.exact.match": [
      'POST .../CIDR.exact.match/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "IN_CIDR", which is not valid. Please use one of the allowed values instead..)',
    ],
    "CIDR.range.match": [
      'POST .../CIDR.range.match/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "IN_CIDR", which is not valid. Please use one of the allowed values instead..)',
    ],
    "CIDR.mixed.values": [
      'POST .../CIDR.mixed.values/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "IN_CIDR", which is not valid. Please use one of the allowed values instead..)',
    ],
    "CIDR.invalid.only": [
      'POST .../CIDR.invalid.only/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "IN_CIDR", which is not valid. Please use one of the allowed values instead..)',
    ],
    "CIDR.ipv6.exact.match": [
      'POST .../CIDR.ipv6.exact.match/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "IN_CIDR", which is not valid. Please use one of the allowed values instead..)',
    ],
    "CIDR.ipv6.range.match": [
      'POST .../CIDR.ipv6.range.match/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "IN_CIDR", which is not valid. Please use one of the allowed values instead..)',
    ],
    "CIDR.ipv6.mixed.values": [
      'POST .../CIDR.ipv6.mixed.values/environments/development/strategies: 400 BadDataError: Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information. (The `operator` property must be equal to one of the allowed values: "NOT_IN", "IN", "STR_ENDS_WITH", "STR_STARTS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "SEMVER_GTE", "SEMVER_LTE", "REGEX". You provided "IN_CIDR", which is not valid. Please use one of the allowed values instead..)',
    ],
  },
};

/** The flags the migration leaves out, each with the message of the rule of Vexil's that refuses it, by file. */
const REFUSED_BY_VEXIL: Record<string, Record<string, string>> = {};

/** The files in as few turns as their feature names allow: each file in the first turn that has none of its names. */
function turns(): string[][] {
  const out: { files: string[]; names: Set<string> }[] = [];
  for (const fileName of FILES) {
    const names = readSpecFile(fileName).state.features.map((f) => f.name);
    let turn = out.find((t) => !names.some((n) => t.names.has(n)));
    if (!turn) {
      turn = { files: [], names: new Set() };
      out.push(turn);
    }
    turn.files.push(fileName);
    for (const n of names) turn.names.add(n);
  }
  return out.map((t) => t.files);
}

if (!PEER_TESTS) {
  console.log(`${TITLE}: ${PEER_SKIP_REASON}`);
  test(`${TITLE}: ${PEER_SKIP_REASON}`, () => {});
} else {
  let unleash: UnleashPeer;
  const report: string[] = [];
  const call = (method: string, path: string, body?: unknown) =>
    unleash.call(method, path, { headers: unleash.admin, ...(body === undefined ? {} : { body }) });
  const expectStatus = async (method: string, path: string, body: unknown, status: number) => {
    const reply = await call(method, path, body);
    assert.is(reply.status, status, `${method} ${path}: ${JSON.stringify(reply.json)}`);
    return reply.json;
  };

  test.before(async () => {
    unleash = await startUnleashPeer();
    report.push(`Unleash 8.2 started in ${unleash.timings.startSeconds.toFixed(1)} s`);
  });
  test.after(async () => {
    console.log(`${TITLE}:\n  ${report.join("\n  ")}`);
    await unleash?.stop();
  });

  test("Unleash's open-source edition makes no project: the files share `default`", async () => {
    const reply = await call("POST", "/api/admin/projects", { id: "spec-01", name: "01" });
    assert.is(reply.status, 404, JSON.stringify(reply.json));
  });

  const allTurns = turns();
  for (const [t, files] of allTurns.entries()) {
    const turn = `turn ${t + 1} (${files.map((f) => f.slice(0, 2)).join(", ")})`;
    const refusals = new Map<string, Refusal[]>();
    let db: TestDb | undefined;
    let srv: TestServer | undefined;
    let sdks: { fromUnleash: Unleash; fromVexil: Unleash } | undefined;

    test(`${turn}: the files' states go into Unleash; Unleash refuses what is recorded`, async () => {
      const started = Date.now();
      for (const fileName of files) refusals.set(fileName, await loadSpecState(call, PROJECT, "development", readSpecFile(fileName).state));
      report.push(`${turn}: loaded into Unleash in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const refused = Object.fromEntries(
        files.map((f) => [f, answersByFeature(refusals.get(f) ?? [])] as const).filter(([, r]) => Object.keys(r).length > 0),
      );
      const expected = Object.fromEntries(files.filter((f) => REFUSED_BY_UNLEASH[f]).map((f) => [f, REFUSED_BY_UNLEASH[f]]));
      assert.equal(refused, expected);
    });

    test(`${turn}: migrated into a fresh Vexil database; Vexil refuses what is recorded; a second run changes nothing`, async () => {
      const started = Date.now();
      db = await createTestDb();
      const env = { DATABASE_URL: db.databaseUrl as string };
      const args = ["migrate-from-unleash", "--url", unleash.url, "--token", unleash.admin.authorization as string];
      const first = await runVexil(args, { env });
      const firstSeconds = (Date.now() - started) / 1000;
      assert.is(first.code, 0, first.stderr);
      assert.match(first.stdout, /Made \d+ changes/);
      const refused: Record<string, Record<string, string>> = {};
      for (const m of first.stdout.matchAll(/^ {2}refused by Vexil's rules: default\/development (\S+): (.*)$/gm)) {
        const flag = m[1] as string;
        const fileName = files.find((f) => readSpecFile(f).state.features.some((x) => x.name === flag)) ?? "(no file of this turn)";
        (refused[fileName] ??= {})[flag] = m[2] as string;
      }
      const expected = Object.fromEntries(files.filter((f) => REFUSED_BY_VEXIL[f]).map((f) => [f, REFUSED_BY_VEXIL[f]]));
      assert.equal(refused, expected);
      // What cannot be copied is said, with this Unleash's counts: its one user, the harness's two tokens.
      const notCopied = first.stdout.slice(first.stdout.indexOf("\nNot copied:\n"));
      assert.match(notCopied, /^\nNot copied:\n/, first.stdout.slice(-3000));
      assert.match(notCopied, /\n {2}1 user: Unleash never gives out password hashes/, notCopied);
      assert.match(notCopied, /\n {2}2 API tokens: a token's secret is Unleash's/, notCopied);
      assert.match(notCopied, /\n {2}the event log, metrics and last-seen times/, notCopied);

      const events = await eventCount(db);
      const second = await runVexil(args, { env });
      assert.is(second.code, 0, second.stderr);
      assert.match(second.stdout, /Nothing changed: /);
      assert.is(await eventCount(db), events);
      report.push(
        `${turn}: migrated in ${firstSeconds.toFixed(1)} s, ${first.stdout.match(/Made (\d+) changes/)?.[1]} changes; the second run in ${((Date.now() - started) / 1000 - firstSeconds).toFixed(1)} s, none`,
      );

      srv = await startTestServer({}, { db });
      const vexilToken = await createApiToken(srv.db.kysely, null, {
        tokenName: "peer-migrate-specification",
        type: "client",
        projects: [PROJECT],
        environment: "development",
      });
      const fromUnleash = peerSdk("Unleash", `${unleash.url}/api/`, unleash.client.authorization as string, APP_NAME);
      const fromVexil = peerSdk("Vexil", `${srv.url}/api/`, vexilToken.secret, APP_NAME);
      sdks = { fromUnleash: fromUnleash.client, fromVexil: fromVexil.client };
      await Promise.all([fromUnleash.synchronized, fromVexil.synchronized]);
    });

    for (const fileName of files) {
      test(`${fileName}: the Node SDK answers ${CONTEXTS} generated contexts alike on every flag from Unleash and from the migrated Vexil`, () => {
        assert.ok(sdks, "both SDKs synchronised");
        const { fromUnleash, fromVexil } = sdks;
        const file = readSpecFile(fileName);
        const flags = file.state.features.map((f) => f.name);
        const notCreated = new Set(
          (refusals.get(fileName) ?? []).filter((r) => r.request === `POST /api/admin/projects/${PROJECT}/features`).map((r) => r.feature),
        );
        const notCopied = new Set(Object.keys(REFUSED_BY_VEXIL[fileName] ?? {}));
        const served = (sdk: Unleash) => flags.filter((f) => sdk.getFeatureToggleDefinition(f) !== undefined);
        // Unleash serves each flag it created; Vexil each of those but the ones its rules refuse.
        assert.equal(
          served(fromUnleash),
          flags.filter((f) => !notCreated.has(f)),
        );
        assert.equal(
          served(fromVexil),
          flags.filter((f) => !notCreated.has(f) && !notCopied.has(f)),
        );

        const compared = flags.filter((f) => !notCopied.has(f));
        const contexts = specContexts(file, CONTEXTS, Number(fileName.slice(0, 2)));
        const differences: string[] = [];
        const started = Date.now();
        let evaluations = 0;
        for (const [i, context] of contexts.entries()) {
          for (const [j, flag] of compared.entries()) {
            const seed = i * 1000 + j;
            const u = evaluate(fromUnleash, flag, context, seed);
            const v = evaluate(fromVexil, flag, context, seed);
            evaluations++;
            if (u !== v && differences.length < 5) differences.push(`${flag} ${JSON.stringify(context)}: Unleash ${u}, Vexil ${v}`);
          }
        }
        report.push(
          `${fileName}: ${contexts.length} contexts x ${compared.length} flags = ${evaluations} evaluations alike (${Date.now() - started} ms)` +
            (notCreated.size ? `; not created by Unleash: ${[...notCreated].join(", ")}` : "") +
            (notCopied.size ? `; not copied (Vexil's rules): ${[...notCopied].join(", ")}` : ""),
        );
        assert.equal(differences, []);
      });
    }

    test(`${turn}: the SDKs and Vexil stopped; Unleash's flags archived, and those the next turns reuse deleted`, async () => {
      sdks?.fromUnleash.destroy();
      sdks?.fromVexil.destroy();
      await srv?.close();
      await db?.close();
      const later = new Set(allTurns.slice(t + 1).flatMap((fs) => fs.flatMap((f) => readSpecFile(f).state.features.map((x) => x.name))));
      if (!later.size) return;
      const { features } = (await expectStatus("GET", `/api/admin/projects/${PROJECT}/features`, undefined, 200)) as {
        features: { name: string }[];
      };
      // Children before their parents: Unleash refuses to archive a parent with a live child.
      const children = new Set(
        files.flatMap((f) =>
          readSpecFile(f)
            .state.features.filter((x) => x.dependencies?.length)
            .map((x) => x.name),
        ),
      );
      const names = features.map((f) => f.name);
      for (const batch of [names.filter((n) => children.has(n)), names.filter((n) => !children.has(n))]) {
        if (batch.length) await expectStatus("POST", `/api/admin/projects/${PROJECT}/archive`, { features: batch }, 202);
      }
      // Unleash enters an archived flag's lifecycle stage when it announces the archive, a moment later; a flag
      // deleted before that fails the insert in an event listener, which ended Unleash (docs/peer-tests.md#running-them).
      const reused = names.filter((n) => later.has(n));
      for (const name of reused) {
        await until(
          async () => {
            const stages = (await expectStatus("GET", `/api/admin/projects/${PROJECT}/features/${name}/lifecycle`, undefined, 200)) as {
              stage: string;
            }[];
            return stages.some((s) => s.stage === "archived");
          },
          `Unleash to enter ${name}'s lifecycle stage "archived"`,
          60_000,
        );
      }
      if (reused.length) await expectStatus("POST", `/api/admin/projects/${PROJECT}/delete`, { features: reused }, 200);
    });
  }
}

/** A refused write as the test records it: "METHOD path: status name: message", grouped by feature. */
function answersByFeature(refusals: Refusal[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of refusals) {
    // The details, where the message does not already say them (Unleash repeats a one-line reason in both).
    const extra = (r.details ?? []).filter((d) => !r.message.includes(d));
    const details = extra.length ? ` (${extra.join("; ")})` : "";
    (out[r.feature] ??= []).push(`${r.request}: ${r.status} ${r.name}: ${r.message}${details}`);
  }
  return out;
}

const realRandom = Math.random;

/**
 * One flag's answer for one context, with the SDK's random draws (random stickiness, a default
 * stickiness without a userId or sessionId, gradualRolloutRandom) taken from a generator seeded
 * with `seed`: both SDKs draw the same numbers, so that two servers serving the same flag give the
 * same answer even where the SDK draws at random, and any difference in what they serve shows.
 */
function evaluate(sdk: Unleash, flag: string, context: Context, seed: number): string {
  Math.random = seededRandom(seed);
  try {
    return JSON.stringify([sdk.isEnabled(flag, context), sdk.getVariant(flag, context)]);
  } finally {
    Math.random = realRandom;
  }
}

async function eventCount(db: TestDb): Promise<number> {
  const row = await db.kysely
    .selectFrom("events")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

test.run();
