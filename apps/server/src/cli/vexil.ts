import { runCli } from "./main.ts";
import { processTerminal } from "./terminal.ts";

/** Resolves once what was written to the stream before has been handed to the system. */
const drained = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

// The `vexil` command's process: bin/vexil.mjs runs this file's bundle (dist/vexil.mjs).
const code = await runCli(process.argv.slice(2), processTerminal());
// Exit at once: a command has closed what it opened, and nothing else should keep it alive. But
// first let stdout and stderr drain: into a pipe whose reader is slow (a long migration's plan into
// a busy test), writes queue, and exiting would cut the output short.
if (code !== "running") {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
