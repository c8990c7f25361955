import { OFREPProvider } from "@openfeature/ofrep-provider";
import { OpenFeature } from "@openfeature/server-sdk";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type Details,
  EXPECTED_INEXPRESSIBLE,
  type OfrepCase,
  ofrepCases,
  unexpectedErrorCode,
} from "./support/ofrep-specification-cases.ts";
import { runSpecificationFiles } from "./support/run-specification-files.ts";
import { specFileProject } from "./support/spec-file-project.ts";
import { unservable } from "./support/specification-files.ts";
import type { TestServer } from "./support/test-server.ts";

// The client specification through OFREP (docs/ofrep.md#ofrep): OpenFeature's server SDK
// with the OFREP provider, pointed at Vexil with a client token, one evaluation call per case.

/** Cases the mapping cannot express, with why; printed, and asserted so that the list cannot grow unseen. */
const inexpressible: string[] = [];

type Client = ReturnType<typeof OpenFeature.getClient>;

/**
 * The flag's evaluation as an application reads it: OFREP has no type in its answer, so the
 * caller asks for the type it expects; here each in turn until the provider answers without a
 * type mismatch (a boolean flag, a variant's text, number or object).
 */
async function details(client: Client, key: string, context: Record<string, string>, booleanDefault = false): Promise<Details> {
  const tries: (() => Promise<Details>)[] = [
    () => client.getBooleanDetails(key, booleanDefault, context),
    () => client.getStringDetails(key, "", context),
    () => client.getNumberDetails(key, 0, context),
    () => client.getObjectDetails(key, {}, context),
  ];
  let last: Details | undefined;
  for (const attempt of tries) {
    last = await attempt();
    if (last.errorCode !== "TYPE_MISMATCH") return last;
  }
  return last as Details;
}

async function runFile(srv: TestServer, admin: Record<string, string>, fileName: string, index: number) {
  const { file, refusals, secret } = await specFileProject(srv, admin, fileName, index, "client");
  const domain = `ofrep-spec-${index}`;
  await OpenFeature.setProviderAndWait(domain, new OFREPProvider({ baseUrl: srv.url, headers: [["Authorization", secret]] }));
  const client = OpenFeature.getClient(domain);

  const skipped = unservable(file, new Set(refusals.map((r) => r.feature)));
  const { cases, refusedCases } = ofrepCases(fileName, file, skipped, inexpressible);
  let passed = 0;
  const failed: string[] = [];
  const errors: unknown[] = [];
  /**
   * An answer with no value (a flag with variants switched off, or one that gives the context
   * none) reaches provider 0.1.3 as GENERAL "does not match the expected format", since its
   * ofrep-core (0.1.x) predates OFREP's optional value: the value is still the code's default, and
   * the server's own answer is checked to have none.
   */
  const unexpectedError = async (c: OfrepCase, got: Details) => {
    if (!unexpectedErrorCode(c, got)) return;
    if (got.errorCode === "GENERAL" && /does not match the expected format/.test(got.errorMessage ?? "")) {
      const answer = await srv.call("POST", `/ofrep/v1/evaluate/flags/${encodeURIComponent(c.key)}`, {
        headers: { authorization: secret },
        body: { context: c.context },
      });
      if (answer.status === 200 && !("value" in answer.json) && ["DISABLED", "DEFAULT"].includes(answer.json.reason)) return;
    }
    errors.push(`${c.description}: ${got.errorCode} ${got.errorMessage}`);
  };

  for (const c of cases) {
    const got = await details(client, c.key, c.context, c.booleanDefault);
    await unexpectedError(c, got);
    const problem = c.judge(got);
    if (problem) failed.push(problem);
    else passed++;
  }
  await OpenFeature.clearProviders();
  return { refusals, passed, failed, refusedCases, errors };
}

const kinds = process.env.TEST_DATABASE_URL ? (["postgres", "embedded"] as const) : (["embedded"] as const);

for (const kind of kinds) {
  test(`every case the mapping can express passes through OpenFeature's server SDK and OFREP provider (${kind})`, async () => {
    inexpressible.length = 0;
    const problems = await runSpecificationFiles("client specification through OFREP", kind, {}, runFile);
    console.log(`  not expressible in an OpenFeature context (${inexpressible.length}):\n    ${inexpressible.join("\n    ")}`);
    assert.equal(problems, []);
    assert.equal(inexpressible.length, EXPECTED_INEXPRESSIBLE, inexpressible.join("\n"));
  });
}

test.run();
