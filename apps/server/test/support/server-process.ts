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
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${lines.join("\n")}`)), START_DEADLINE_MS);
    const take = (stream: NodeJS.ReadableStream) => {
      let rest = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const parts = (rest + chunk).split("\n");
        rest = parts.pop() ?? "";
        for (const line of parts) {
          lines.push(line);
          const started = /"url":"(http:\/\/[^"]+)"/.exec(line);
          if (started && line.includes("Vexil listening")) {
            clearTimeout(timer);
            resolve(started[1] as string);
          }
        }
      });
    };
    take(child.stdout!);
    take(child.stderr!);
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening:\n${lines.join("\n")}`));
    });
  });
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
