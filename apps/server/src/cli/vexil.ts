import { runCli } from "./main.ts";
import { processTerminal } from "./terminal.ts";

// The `vexil` command's process: bin/vexil.mjs runs this file's bundle (dist/vexil.mjs).
const code = await runCli(process.argv.slice(2), processTerminal());
// Exit at once: a command has closed what it opened, and nothing else should keep it alive.
if (code !== "running") process.exit(code);
