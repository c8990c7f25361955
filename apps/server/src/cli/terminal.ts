import type { Readable, Writable } from "node:stream";

/** Where a command reads and writes: results on stdout, progress and messages on stderr. */
export interface Terminal {
  env: NodeJS.ProcessEnv;
  stdin: Readable & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  stdout: Writable;
  stderr: Writable;
  /** A result line, on stdout. */
  print(line: string): void;
  /** A progress or information line, on stderr, so that stdout can be piped. */
  progress(line: string): void;
}

export function processTerminal(): Terminal {
  return {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    print: (line) => process.stdout.write(`${line}\n`),
    progress: (line) => process.stderr.write(`${line}\n`),
  };
}
