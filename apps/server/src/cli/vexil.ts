import { readFileSync } from "node:fs";
import { runCli } from "./main.ts";
import { processTerminal } from "./terminal.ts";

/** Resolves once what was written to the stream before has been handed to the system. */
const drained = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

// This file runs bundled as dist/vexil.mjs, and dist/ sits beside the package.json that names the
// version: apps/server's in the repository, the installed package's own after `npm install`.
const version = () => JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version as string;

// The `vexil` command's process: bin/vexil.mjs runs this file's bundle (dist/vexil.mjs).
const code = await runCli(process.argv.slice(2), processTerminal(), version);
// Exit at once: a command has closed what it opened, and nothing else should keep it alive. But
// first let stdout and stderr drain: into a pipe whose reader is slow (a long migration's plan into
// a busy test), writes queue, and exiting would cut the output short.
if (code !== "running") {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
