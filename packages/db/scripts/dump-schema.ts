// Writes packages/db/schema.sql, the schema the migrations produce, so that a reviewer reads the
// schema a change makes: migrates a fresh database on the Postgres of TEST_DATABASE_URL (or
// DATABASE_URL, or the local one), dumps it with pg_dump and drops it. With `--check` it writes
// nothing and fails, printing the difference, when the checked-in file is not what the migrations
// make.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { connectDatabase } from "../src/create-db.ts";
import { migrateToLatest } from "../src/migrate.ts";

const schemaFile = new URL("../schema.sql", import.meta.url);
const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const check = process.argv.includes("--check");

const name = `vexil_schema_${randomBytes(4).toString("hex")}`;
const url = new URL(serverUrl);
url.pathname = `/${name}`;

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
let dumped: string;
try {
  await admin.query(`create database "${name}"`);
  try {
    const db = connectDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      await migrateToLatest(db.kysely);
    } finally {
      await db.close();
    }
    const dump = spawnSync("pg_dump", ["--schema-only", "--no-owner", "--no-privileges", url.toString()], { encoding: "utf8" });
    if (dump.error || dump.status !== 0) throw new Error(`pg_dump failed: ${dump.error?.message ?? dump.stderr}`);
    dumped = normalise(dump.stdout);
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
  }
} finally {
  await admin.end();
}

/** Leaves out what changes from one pg_dump or server to another: versions, session settings, restrict keys. */
function normalise(dump: string): string {
  const kept = dump
    .split("\n")
    .filter((line) => !/^(-- Dumped (from|by) |\\(un)?restrict |SET |SELECT pg_catalog\.set_config\()/.test(line));
  return `${kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()}\n`;
}

if (!check) {
  writeFileSync(schemaFile, dumped);
} else {
  let current = "";
  try {
    current = readFileSync(schemaFile, "utf8");
  } catch {}
  if (current !== dumped) {
    const fresh = new URL(`../schema.sql.${name}`, import.meta.url);
    writeFileSync(fresh, dumped);
    spawnSync(
      "diff",
      ["-u", "--label", "schema.sql (checked in)", "--label", "schema.sql (from the migrations)", schemaFile.pathname, fresh.pathname],
      { stdio: "inherit" },
    );
    rmSync(fresh);
    console.error("packages/db/schema.sql is not what the migrations make: run `pnpm --filter @vexil/db schema` and commit it.");
    process.exit(1);
  }
  console.log("packages/db/schema.sql matches the migrations");
}
