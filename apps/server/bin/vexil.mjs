#!/usr/bin/env node
// Vexil's command line. It runs the TypeScript sources through tsx, as `pnpm start` does, so
// nothing needs building first.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli/main.ts");
const { processTerminal } = await import("../src/cli/terminal.ts");

const code = await runCli(process.argv.slice(2), processTerminal());
// Exit at once: a command has closed what it opened, and nothing else should keep it alive.
if (code !== "running") process.exit(code);
