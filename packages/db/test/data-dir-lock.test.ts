import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connectDatabase, DataDirInUse, migrateToLatest } from "../src/index.ts";

test("an embedded data directory is held by one process at a time, and a dead holder's lock is taken over", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vexil-lock-"));
  const dataDir = join(dir, "data");
  try {
    // Another live process (the parent of this one) holds the directory.
    writeFileSync(`${dataDir}.lock`, String(process.ppid));
    try {
      connectDatabase({ dataDir });
      assert.unreachable("a held data directory must not open");
    } catch (error) {
      assert.instance(error, DataDirInUse);
      assert.match((error as Error).message, `in use by process ${process.ppid}`);
    }
    assert.not.ok(existsSync(dataDir), "nothing was created in the held directory");

    // A process that has ended holds nothing.
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(`${dataDir}.lock`, String(ended));
    const db = connectDatabase({ dataDir });
    await migrateToLatest(db.kysely);
    await db.close();
    assert.not.ok(existsSync(`${dataDir}.lock`), "closing releases the lock");
    const again = connectDatabase({ dataDir });
    assert.is((await again.kysely.selectFrom("projects").select("id").execute()).length, 1);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
