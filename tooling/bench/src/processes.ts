import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface Target {
  name: string;
  base: string;
  child: ChildProcess;
  /** Lines the process wrote, for the report of warnings and errors. */
  output: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a Node process serving HTTP on a free port and waits until `readyPath` answers 200. */
export async function startTarget(
  name: string,
  args: string[],
  options: { cwd: string | URL; env: Record<string, string | undefined>; readyPath: string },
): Promise<Target> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    // An undefined value removes the variable (DATABASE_URL for the embedded database).
    env: Object.fromEntries(
      Object.entries({ ...process.env, ...options.env, HOST: "127.0.0.1", PORT: String(port) }).filter(([, v]) => v !== undefined),
    ),
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => output.push(...chunk.toString().split("\n").filter(Boolean)));
  }
  let ready = false;
  child.once("exit", (code, signal) => {
    if (!ready) return;
    console.error(`${name} exited (code ${code}, signal ${signal}); its last lines:\n${output.slice(-20).join("\n")}`);
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited early with code ${child.exitCode}:\n${output.join("\n")}`);
    try {
      if ((await fetch(base + options.readyPath)).status === 200) {
        ready = true;
        return { name, base, child, output };
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`${name} not ready after 60 s:\n${output.join("\n")}`);
}

export async function stopTarget(target: Target): Promise<void> {
  const { child } = target;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) {
    child.kill("SIGKILL");
    await exited;
  }
}

export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

// Clock ticks a second, the unit of /proc/<pid>/stat's CPU times.
let ticksPerSecond: number | undefined;
const clockTicks = () => (ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100);

/** A process's command name and CPU ticks (user and system) from its /proc/<pid>/stat; throws when it cannot be read. */
function processStat(pid: number | string): { command: string; ticks: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command is in parentheses and may hold any character: the fields are those after the last
  // closing one; utime and stime are the 12th and 13th of them.
  const close = stat.lastIndexOf(") ");
  const fields = stat.slice(close + 2).split(" ");
  return { command: stat.slice(stat.indexOf("(") + 1, close), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** The CPU time (user and system) a process has used, in seconds; NaN when it cannot be read. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    return processStat(pid).ticks / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/**
 * Each Postgres process of this machine (the server's connections and Postgres's own workers
 * alike) by pid: its CPU ticks; undefined when /proc cannot be listed.
 */
export type PostgresCpu = Map<number, number> | undefined;

export function postgresCpu(): PostgresCpu {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      const { command, ticks: used } = processStat(pid);
      if (command === "postgres") ticks.set(Number(pid), used);
    } catch {
      // Ended since the listing.
    }
  }
  return ticks;
}

/**
 * The CPU time (user and system) in seconds that Postgres's processes used since `before`: those
 * that began since then count whole; those that ended took their time with them (a pool's idle
 * connection closed meanwhile), so it can only be less than the truth. NaN when /proc cannot be read.
 */
export function postgresCpuSecondsSince(before: PostgresCpu): number {
  const now = postgresCpu();
  if (!before || !now) return Number.NaN;
  let ticks = 0;
  for (const [pid, used] of now) ticks += used - (before.get(pid) ?? 0);
  try {
    return ticks / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/** Samples a process's resident memory while `work` runs; resolves with the work's result and the peak. */
export async function withPeakRss<T>(pid: number | undefined, work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = pid ? rssMb(pid) : 0;
  const timer = setInterval(() => {
    if (pid) peak = Math.max(peak, rssMb(pid));
  }, 250);
  try {
    const result = await work();
    if (pid) peak = Math.max(peak, rssMb(pid));
    return { result, peakRssMb: peak };
  } finally {
    clearInterval(timer);
  }
}
