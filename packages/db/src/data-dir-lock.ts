import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (a running Vexil server or command). ` +
        "Stop it first, or set DATABASE_URL to a Postgres that several processes can share.",
    );
    this.name = "DataDirInUse";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function holderOf(lockFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * PGlite does not lock its data directory, and a second process opening it sees stale data and
 * corrupts it with its writes; so one process at a time holds `<dataDir>.lock`. A lock left by
 * a process that died is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir.replace(/\/+$/, "")}.lock`;
  mkdirSync(dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockFile, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = holderOf(lockFile);
      if (pid !== null && isAlive(pid)) throw new DataDirInUse(dataDir, pid);
      unlinkSync(lockFile);
      continue;
    }
    writeSync(fd, String(process.pid));
    closeSync(fd);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off("exit", release);
      if (holderOf(lockFile) === process.pid) unlinkSync(lockFile);
    };
    process.on("exit", release);
    return release;
  }
  throw new DataDirInUse(dataDir, holderOf(lockFile) ?? 0);
}
