import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { buildServer } from "./build-server.ts";

const SERVER_DIR = fileURLToPath(new URL("../..", import.meta.url));
const START_DEADLINE_MS = 60_000;

/** The real server entry point in a child process, as an operator runs it: built, as `pnpm start` runs it. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Every line the process wrote to stdout and stderr so far. */
  lines: string[];
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown, no flush, as a crash or an OOM kill would end it. */
  kill(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  buildServer();
  const child = spawn(process.execPath, ["dist/server.mjs"], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", LOG_PRETTY: "false", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  // "close" comes after the last output has been read, unlike "exit".
  const exited = once(child, "close") as Promise<[number | null, NodeJS.Signals | null]>;
  const url = await startLine(child, lines, exited, "the server", START_DEADLINE_MS, (line) =>
    line.includes("Vexil listening") ? /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1] : undefined,
  );
  return {
    url,
    child,
    lines,
    stop: async () => {
      child.kill("SIGTERM");
      const [code] = await exited;
      return code;
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * Reads a child's output line by line into `lines` until `started` finds what it waits for in one
 * (its address, its port); fails with the output so far when the child exits first or the deadline passes.
 */
export function startLine<T>(
  child: ChildProcess,
  lines: string[],
  exited: Promise<[number | null, NodeJS.Signals | null]>,
  who: string,
  deadlineMs: number,
  started: (line: string) => T | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${who} did not start in time:\n${lines.join("\n")}`)), deadlineMs);
    const take = (stream: NodeJS.ReadableStream) => {
      let rest = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const parts = (rest + chunk).split("\n");
        rest = parts.pop() ?? "";
        for (const line of parts) {
          lines.push(line);
          const found = started(line);
          if (found !== undefined) {
            clearTimeout(timer);
            resolve(found);
          }
        }
      });
    };
    take(child.stdout as NodeJS.ReadableStream);
    take(child.stderr as NodeJS.ReadableStream);
    void exited.then(([code, signal]) => {
      clearTimeout(timer);
      reject(new Error(`${who} exited (${code ?? signal}) before listening:\n${lines.join("\n")}`));
    });
  });
}
