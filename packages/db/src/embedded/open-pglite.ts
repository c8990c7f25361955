import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * Postgres settings for the embedded database. Its buffer pool is allocated and touched inside
 * the wasm memory at start, so Postgres' default of 128 MB costs 128 MB of resident memory in
 * every process (and in every test database) although Vexil's data is a few megabytes and the
 * operating system caches the files anyway.
 */
const EMBEDDED_POSTGRES_SETTINGS = ["shared_buffers=8MB", "wal_buffers=512kB", "temp_buffers=1MB"];

const startParams = () => [...PGlite.defaultStartParams, ...EMBEDDED_POSTGRES_SETTINGS.flatMap((s) => ["-c", s])];

/**
 * Contrib extensions loaded with every embedded database: feature search's substring indexes use
 * pg_trgm (docs/search.md#indexes). A database whose indexes use it must be opened with it.
 */
const EXTENSIONS = { pg_trgm };

// initdb runs a second Postgres and a wasm module of its own; the memory they take (about
// 300 MB) stays with a process long after (a worker thread's too, in part), so it runs in a child
// process that gives it all back when it ends. A directory on disk is created in place; an
// in-memory one is written to a tarball that the caller loads.
const INITDB_SCRIPT = `
const [pgliteUrl, dataDir, tarballPath, startParams] = process.argv.slice(1);
const { PGlite } = await import(pgliteUrl);
const { writeFile } = await import("node:fs/promises");
const pglite = new PGlite(tarballPath ? "memory://" : dataDir, { startParams: JSON.parse(startParams) });
await pglite.waitReady;
if (tarballPath) await writeFile(tarballPath, new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer()));
await pglite.close();
`;

/** Runs initdb for `dataDir` in a child process; for `memory://`, resolves to the data as a tarball. */
async function initdbInChildProcess(dataDir: string): Promise<Blob | undefined> {
  const inMemory = dataDir.startsWith("memory://");
  const scratch = inMemory ? await mkdtemp(join(tmpdir(), "vexil-initdb-")) : undefined;
  const tarballPath = scratch ? join(scratch, "data.tar") : "";
  try {
    const args = [
      "--input-type=module",
      "-e",
      INITDB_SCRIPT,
      import.meta.resolve("@electric-sql/pglite"),
      dataDir,
      tarballPath,
      JSON.stringify(startParams()),
    ];
    await new Promise<void>((resolve, reject) => {
      execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) =>
        error ? reject(new Error(`initdb of the embedded database failed: ${stderr || error.message}`)) : resolve(),
      );
    });
    return tarballPath ? new Blob([await readFile(tarballPath)]) : undefined;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Opens the embedded database in `dataDir` (a directory, or `memory://`). A new one starts from
 * `template` (a data directory tarball) or else from an initdb done in a child process.
 */
export async function openPglite(dataDir: string, template?: Blob): Promise<PGlite> {
  const exists = !dataDir.startsWith("memory://") && existsSync(join(dataDir, "PG_VERSION"));
  const loadDataDir = exists ? undefined : (template ?? (await initdbInChildProcess(dataDir)));
  const pglite = new PGlite(dataDir, { startParams: startParams(), extensions: EXTENSIONS, ...(loadDataDir ? { loadDataDir } : {}) });
  await pglite.waitReady;
  return pglite;
}
