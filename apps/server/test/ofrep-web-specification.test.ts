import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { browserBundle, CHROMIUM, launchChromium } from "./support/browser.ts";
import { type Details, EXPECTED_INEXPRESSIBLE, ofrepCases, unexpectedErrorCode } from "./support/ofrep-specification-cases.ts";
import { runSpecificationFiles } from "./support/run-specification-files.ts";
import { specFileProject } from "./support/spec-file-project.ts";
import { unservable } from "./support/specification-files.ts";
import type { TestServer } from "./support/test-server.ts";

// The client specification through OFREP in a browser (docs/ofrep.md#ofrep): OpenFeature's web
// SDK with the OFREP web provider in Chromium, on a page of its own origin, with a frontend token;
// each case is a context change (the provider's bulk evaluation again) and the client's reads.

/**
 * A frontend token's missing remoteAddress is the caller's address, so the browser reaches Vexil
 * through a reverse proxy (Vexil trusts it) that says the browser is at 192.0.2.10 (TEST-NET-1),
 * an address in no range of the files: cases that leave remoteAddress out mean what they mean to an SDK.
 */
const BROWSER_ADDRESS = "192.0.2.10";

/**
 * In the page: one provider for one file's cases; for each, the context set (which awaits the
 * provider's refetch) and the flag read as the server test reads it, each type in turn until the
 * provider answers without a type mismatch. What the provider reported meanwhile (an error, a
 * stale cache) comes back with the case.
 */
const PAGE_SCRIPT = `import { OpenFeature, ProviderEvents } from "@openfeature/web-sdk";
import { OFREPWebProvider } from "@openfeature/ofrep-web-provider";
window.runCases = async ({ baseUrl, token, cases }) => {
  const client = OpenFeature.getClient();
  let reported = [];
  const report = (event) => reported.push(event.message);
  client.addHandler(ProviderEvents.Error, report);
  client.addHandler(ProviderEvents.Stale, report);
  await OpenFeature.setProviderAndWait(
    new OFREPWebProvider({ baseUrl, headers: [["Authorization", token]], changeDetection: "none", cacheMode: "disabled" }),
  );
  const results = [];
  for (const c of cases) {
    await OpenFeature.setContext(c.context);
    const asks = [
      () => client.getBooleanDetails(c.key, c.booleanDefault),
      () => client.getStringDetails(c.key, ""),
      () => client.getNumberDetails(c.key, 0),
      () => client.getObjectDetails(c.key, {}),
    ];
    let got;
    for (const ask of asks) {
      got = ask();
      if (got.errorCode !== "TYPE_MISMATCH") break;
    }
    results.push({ got, reported });
    reported = [];
  }
  await OpenFeature.close();
  return results;
};`;

type PageCase = { key: string; context: Record<string, string>; booleanDefault: boolean };
type PageResult = { got: Details; reported: string[] };
type RunCases = (input: { baseUrl: string; token: string; cases: PageCase[] }) => Promise<PageResult[]>;

if (CHROMIUM) {
  const sdkJs = await browserBundle(PAGE_SCRIPT);

  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const site = createServer((req, res) => {
    const script = req.url === "/openfeature.js";
    res.writeHead(200, { "content-type": script ? "text/javascript" : "text/html; charset=utf-8" });
    res.end(script ? sdkJs : `<!doctype html><html><head><title>OFREP</title><script src="/openfeature.js"></script></head></html>`);
  });
  /** The server of the file being run: a new one whenever a file reuses a feature name. */
  let upstream = "";
  const proxy = createServer((req, res) => {
    const forwarded = request(
      `${upstream}${req.url}`,
      { method: req.method, headers: { ...req.headers, "x-forwarded-for": BROWSER_ADDRESS }, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", (error) => res.destroy(error));
    req.pipe(forwarded);
  });
  const origin = await listen(site);
  const proxyUrl = await listen(proxy);
  test.after(() => {
    site.close();
    proxy.close();
  });

  const inexpressible: string[] = [];

  const kinds = process.env.TEST_DATABASE_URL ? (["postgres", "embedded"] as const) : (["embedded"] as const);
  for (const kind of kinds) {
    test(`every case the mapping can express passes through OpenFeature's web SDK and OFREP web provider in Chromium (${kind})`, async () => {
      inexpressible.length = 0;
      const browser = await launchChromium();
      try {
        const runFile = async (srv: TestServer, admin: Record<string, string>, fileName: string, index: number) => {
          const { file, refusals, secret } = await specFileProject(srv, admin, fileName, index, "frontend");
          const { cases, refusedCases } = ofrepCases(
            fileName,
            file,
            unservable(file, new Set(refusals.map((r) => r.feature))),
            inexpressible,
          );
          upstream = srv.url;
          const tab = await browser.newPage();
          let results: PageResult[];
          try {
            await tab.goto(origin);
            results = await tab.evaluate((input) => (globalThis as unknown as { runCases: RunCases }).runCases(input), {
              baseUrl: proxyUrl,
              token: secret,
              cases: cases.map(({ key, context, booleanDefault }) => ({ key, context, booleanDefault })),
            });
          } finally {
            await tab.close();
          }
          let passed = 0;
          const failed: string[] = [];
          const errors: string[] = [];
          for (const [i, c] of cases.entries()) {
            const { got, reported } = results[i] as PageResult;
            if (reported.length > 0) errors.push(`${c.description}: the provider reported ${reported.join("; ")}`);
            if (unexpectedErrorCode(c, got)) errors.push(`${c.description}: ${got.errorCode} ${got.errorMessage}`);
            const problem = c.judge(got);
            if (problem) failed.push(problem);
            else passed++;
          }
          return { refusals, passed, failed, refusedCases, errors };
        };
        const problems = await runSpecificationFiles(
          "client specification through the OFREP web provider",
          kind,
          { CORS_ORIGINS: origin, TRUST_PROXY: "127.0.0.1" },
          runFile,
        );
        console.log(`  not expressible in an OpenFeature context (${inexpressible.length}):\n    ${inexpressible.join("\n    ")}`);
        assert.equal(problems, []);
        assert.equal(inexpressible.length, EXPECTED_INEXPRESSIBLE, inexpressible.join("\n"));
      } finally {
        await browser.close();
      }
    });
  }
} else {
  test("client specification through the OFREP web provider in Chromium: skipped, VEXIL_BROWSER_TESTS is not 1", () => {});
}

test.run();
