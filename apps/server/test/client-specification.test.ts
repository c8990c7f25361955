import { once } from "node:events";
import { Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runSpecificationFiles } from "./support/run-specification-files.ts";
import { specFileProject } from "./support/spec-file-project.ts";
import { unservable } from "./support/specification-files.ts";
import type { TestServer } from "./support/test-server.ts";

async function runFile(srv: TestServer, admin: Record<string, string>, fileName: string, index: number) {
  const { file, refusals, secret } = await specFileProject(srv, admin, fileName, index, "client");

  const unleash = new Unleash({
    url: `${srv.url}/api/`,
    appName: `client-specification-${index}`,
    customHeaders: { Authorization: secret },
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
      const got = Object.fromEntries(
        Object.keys(t.expectedResult).map((k) => [k, variant[k === "feature_enabled" ? "feature_enabled" : k]]),
      );
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
    assert.equal(await runSpecificationFiles("client specification", kind, {}, runFile), []);
  });
}

test.run();
