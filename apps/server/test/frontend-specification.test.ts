import { test } from "uvu";
import * as assert from "uvu/assert";
import { runSpecificationFiles } from "./support/run-specification-files.ts";
import { specFileProject } from "./support/spec-file-project.ts";
import { unservable } from "./support/specification-files.ts";
import type { TestServer } from "./support/test-server.ts";

// Without a remoteAddress the frontend API uses the request's address. The test client is the
// trusted proxy and says the browser is at 192.0.2.10 (TEST-NET-1), an address in no range of the
// files, so cases that leave remoteAddress out mean what they mean to an SDK.
const BROWSER = { "x-forwarded-for": "192.0.2.10" };

/** What `unleash-proxy-client` answers for a flag the frontend API did not return. */
const ABSENT: Record<string, unknown> = { name: "disabled", enabled: false, feature_enabled: false };

/** The context as unleash-proxy-client puts it in the query: fields by name, `properties[name]`, no empty values. */
function query(context: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(context)) {
    if (value === null || value === undefined) continue;
    if (key === "properties") {
      for (const [name, v] of Object.entries(value as Record<string, unknown>))
        if (v !== null && v !== undefined) params.append(`properties[${name}]`, String(v));
    } else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

type Toggle = { name: string; variant: Record<string, unknown> };

async function runFile(srv: TestServer, admin: Record<string, string>, fileName: string, index: number) {
  const { file, refusals, secret } = await specFileProject(srv, admin, fileName, index, "frontend");
  const headers = { ...BROWSER, authorization: secret };

  /** The toggles for a context, by GET and by POST (each case must hold for both: random rollouts may differ elsewhere). */
  const failed: string[] = [];
  async function toggles(description: string, context: Record<string, unknown>): Promise<[string, Toggle[]][]> {
    const got = await srv.call("GET", `/api/frontend${query(context)}`, { headers });
    const posted = await srv.call("POST", "/api/frontend", { headers, body: { context } });
    if (got.status !== 200 || posted.status !== 200)
      failed.push(`${description}: GET ${got.status} ${JSON.stringify(got.json)}, POST ${posted.status} ${JSON.stringify(posted.json)}`);
    return [
      ["GET", got.json?.toggles ?? []],
      ["POST", posted.json?.toggles ?? []],
    ];
  }

  const skipped = unservable(file, new Set(refusals.map((r) => r.feature)));
  let passed = 0;
  const refusedCases: string[] = [];
  for (const t of file.tests ?? []) {
    if (skipped.has(t.toggleName)) {
      refusedCases.push(t.description);
      continue;
    }
    const wrong = (await toggles(t.description, t.context))
      .map(([method, answer]) => [method, answer.some((toggle) => toggle.name === t.toggleName)] as const)
      .filter(([, on]) => on !== t.expectedResult);
    if (wrong.length === 0) passed++;
    else failed.push(`${t.description}: expected ${t.expectedResult}, got ${wrong.map(([method, on]) => `${on} by ${method}`).join(", ")}`);
  }
  for (const t of file.variantTests ?? []) {
    if (skipped.has(t.toggleName)) {
      refusedCases.push(t.description);
      continue;
    }
    const wrong = (await toggles(t.description, t.context))
      .map(([method, answer]) => [method, answer.find((toggle) => toggle.name === t.toggleName)?.variant ?? ABSENT] as const)
      .filter(
        ([, variant]) =>
          JSON.stringify(Object.fromEntries(Object.keys(t.expectedResult).map((k) => [k, variant[k]]))) !==
          JSON.stringify(t.expectedResult),
      );
    if (wrong.length === 0) passed++;
    else
      failed.push(
        `${t.description}: expected ${JSON.stringify(t.expectedResult)}, got ${wrong.map(([method, v]) => `${JSON.stringify(v)} by ${method}`).join(", ")}`,
      );
  }
  return { refusals, passed, failed, refusedCases };
}

const kinds = process.env.TEST_DATABASE_URL ? (["postgres", "embedded"] as const) : (["embedded"] as const);

for (const kind of kinds) {
  test(`every case of every specification file passes through the frontend API (GET and POST), or its state is refused by a rule (${kind})`, async () => {
    assert.equal(
      await runSpecificationFiles("client specification through the frontend API", kind, { TRUST_PROXY: "127.0.0.1" }, runFile),
      [],
    );
  });
}

test.run();
