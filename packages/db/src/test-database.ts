import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { Kysely } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import { connectDatabase, type DatabaseConnection } from "./create-db.ts";
import type { Database } from "./database.ts";
import { openPglite } from "./embedded/open-pglite.ts";
import { migrateToLatest } from "./migrate.ts";
import { migrations } from "./migrations/index.ts";

export interface TestDb extends DatabaseConnection {
  /** The connection string of this file's database; absent on PGlite. */
  databaseUrl?: string;
}

// Each test file clones a template that is migrated once per set of migrations, which is much
// faster than migrating every test database from scratch.
const migrationsHash = createHash("sha256")
  .update(
    Object.entries(migrations)
      .map(([name, m]) => name + m.up.toString())
      .join("\n"),
  )
  .digest("hex")
  .slice(0, 12);
const TEMPLATE_LOCK_KEY = 7_401_338;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function ensureTemplate(admin: pg.Client, serverUrl: string, template: string): Promise<void> {
  await admin.query("select pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [template]);
    if (found.rowCount) return;
    const building = `${template}_building`;
    await admin.query(`drop database if exists "${building}" with (force)`);
    await admin.query(`create database "${building}"`);
    const built = connectDatabase({ databaseUrl: withDatabase(serverUrl, building), poolSize: 1 });
    try {
      await migrateToLatest(built.kysely);
    } finally {
      await built.close();
    }
    // Renamed only once complete, so a template that exists is always fully migrated.
    await admin.query(`alter database "${building}" rename to "${template}"`);
  } finally {
    await admin.query("select pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]);
  }
}

// The embedded counterpart of the template: migrated once per set of migrations and PGlite build
// for every test process of the machine (initdb and the migrations took most of a test file's
// time), kept as a data directory tarball under the temporary directory, written whole and then
// renamed into place; every test database starts from its files, skipping initdb and migrations.
let embeddedTemplate: Promise<Blob> | undefined;

async function migratedEmbeddedTemplate(): Promise<Blob> {
  const pgliteBuild = createHash("sha256")
    .update(import.meta.resolve("@electric-sql/pglite"))
    .digest("hex")
    .slice(0, 12);
  const file = join(tmpdir(), `vexil-test-template-${migrationsHash}-${pgliteBuild}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {}
  const pglite = await openPglite("memory://");
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrateToLatest(db);
    const template = await pglite.dumpDataDir("none");
    await writeFile(`${file}.${process.pid}`, new Uint8Array(await template.arrayBuffer()));
    await rename(`${file}.${process.pid}`, file);
    return template;
  } finally {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  }
}

/**
 * A fresh, migrated database for one test file: a clone of a migrated template on the real
 * Postgres named by TEST_DATABASE_URL (or DATABASE_URL), and an in-memory PGlite otherwise.
 * `close()` drops it.
 */
export async function createTestDb(env: Record<string, string | undefined> = process.env): Promise<TestDb> {
  const serverUrl = env.TEST_DATABASE_URL || env.DATABASE_URL;
  if (!serverUrl) {
    embeddedTemplate ??= migratedEmbeddedTemplate();
    // On disk rather than in memory://, whose files would sit in the process's memory: about
    // 35 MB less for each database, and uvu imports every test file, opening its database,
    // before it runs any.
    const scratch = await mkdtemp(join(tmpdir(), "vexil-test-db-"));
    const embedded = connectDatabase({ dataDir: join(scratch, "data"), embeddedTemplate: await embeddedTemplate });
    return {
      ...embedded,
      close: async () => {
        try {
          await embedded.close();
        } finally {
          await rm(scratch, { recursive: true, force: true });
        }
      },
    };
  }

  const template = `vexil_template_${migrationsHash}`;
  const name = `vexil_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await ensureTemplate(admin, serverUrl, template);
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }

  const databaseUrl = withDatabase(serverUrl, name);
  const db = connectDatabase({ databaseUrl, poolSize: 5 });
  return {
    ...db,
    databaseUrl,
    close: async () => {
      await db.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
