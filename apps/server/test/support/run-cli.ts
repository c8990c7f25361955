import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectDatabase, type DatabaseConnection } from "@vexil/db";
import { createTestDb } from "@vexil/db/testing";
import { buildServer } from "./build-server.ts";

// The bin runs the build in dist/, which must be the sources as they are now.
buildServer();
export const VEXIL_BIN = fileURLToPath(new URL("../../bin/vexil.mjs", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A run of the bin that has not ended by then is killed and fails the test with its output so far. */
const RUN_DEADLINE_MS = 120_000;

/** The real `vexil` bin in a child process, with only the environment given (and PATH, HOME). */
export async function runVexil(
  args: string[],
  options: { env?: Record<string, string>; input?: string; deadlineMs?: number } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [VEXIL_BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  child.stdin.end(options.input ?? "");
  const deadlineMs = options.deadlineMs ?? RUN_DEADLINE_MS;
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`vexil ${args[0]} did not end within ${deadlineMs} ms:\n${stdout}\n${stderr}`));
    }, deadlineMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, stdout, stderr };
}

/**
 * A database for the CLI to work on: this file's test database on Postgres (passed as
 * DATABASE_URL), else an embedded one in a temporary DATA_DIR. `open` gives the test its own
 * connection; the embedded database allows one process at a time, so open it only while no
 * command runs, and close it before the next.
 */
export interface CliDatabase {
  kind: "postgres" | "pglite";
  env: Record<string, string>;
  open(): DatabaseConnection;
  /** Opens, looks, closes. */
  inspect<T>(look: (db: DatabaseConnection["kysely"]) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function cliDatabase(): Promise<CliDatabase> {
  let open: () => DatabaseConnection;
  let env: Record<string, string>;
  let close: () => Promise<void>;
  if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) {
    const testDb = await createTestDb();
    const databaseUrl = testDb.databaseUrl as string;
    env = { DATABASE_URL: databaseUrl };
    open = () => connectDatabase({ databaseUrl, poolSize: 2 });
    close = () => testDb.close();
  } else {
    const dir = mkdtempSync(join(tmpdir(), "vexil-cli-"));
    const dataDir = join(dir, "data");
    env = { DATA_DIR: dataDir };
    open = () => connectDatabase({ dataDir });
    close = async () => rmSync(dir, { recursive: true, force: true });
  }
  return {
    kind: env.DATABASE_URL ? "postgres" : "pglite",
    env,
    open,
    async inspect(look) {
      const db = open();
      try {
        return await look(db.kysely);
      } finally {
        await db.close();
      }
    },
    close,
  };
}
