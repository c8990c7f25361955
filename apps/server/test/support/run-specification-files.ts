import { createTestDb } from "@vexil/db/testing";
import { adminToken } from "./principals.ts";
import { FILES, readSpecFile, refusalProblems, refusalReasons } from "./specification-files.ts";
import type { Refusal } from "./specification-state.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

/** What one specification file gave through one way of evaluating it. */
export interface SpecFileResult {
  refusals: Refusal[];
  passed: number;
  failed: string[];
  refusedCases: string[];
  /** What the client reported going wrong, if it reports anything. */
  errors?: unknown[];
}

/**
 * Runs every specification file (but 19 and 20) through `runFile` on servers of one database kind,
 * a new server whenever a file reuses a feature name (names are unique per server). Prints the
 * per-file report under `label` and answers every problem: a refusal not on the list (or missing),
 * a failed case, an error the client reported.
 */
export async function runSpecificationFiles(
  label: string,
  kind: "postgres" | "embedded",
  serverEnv: Record<string, string>,
  runFile: (srv: TestServer, admin: Record<string, string>, fileName: string, index: number) => Promise<SpecFileResult>,
): Promise<string[]> {
  const report: string[] = [];
  const problems: string[] = [];
  let srv: TestServer | undefined;
  let names = new Set<string>();
  let admin: Record<string, string> = {};
  try {
    for (const [i, fileName] of FILES.entries()) {
      const state = readSpecFile(fileName).state;
      if (!srv || state.features.some((f) => names.has(f.name))) {
        await srv?.close();
        srv = await startTestServer(serverEnv, { db: await createTestDb(kind === "embedded" ? {} : process.env) });
        admin = await adminToken(srv);
        names = new Set();
      }
      for (const f of state.features) names.add(f.name);
      const result = await runFile(srv, admin, fileName, i);
      problems.push(...refusalProblems(fileName, result.refusals));
      for (const f of result.failed) problems.push(`${fileName}: ${f}`);
      if (result.errors?.length) problems.push(`${fileName}: the client reported ${result.errors.map(String).join("; ")}`);
      const why = refusalReasons(fileName);
      report.push(
        `${fileName}: ${result.passed} passed, ${result.refusedCases.length} refused${why ? `: ${why}` : ""}${result.failed.length ? `, ${result.failed.length} FAILED` : ""}`,
      );
    }
  } finally {
    await srv?.close();
    console.log(`${label} on ${kind}:\n  ${report.join("\n  ")}`);
  }
  return problems;
}
