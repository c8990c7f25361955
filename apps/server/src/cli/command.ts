import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Terminal } from "./terminal.ts";

/** One `vexil` command: its words (`["user", "add"]`), help text, and what it does. */
export interface Command {
  words: string[];
  summary: string;
  /** The full `--help` text, usage line first. */
  help: string;
  /** True for `serve`: the process lives on after run() resolves. */
  keepsRunning?: boolean;
  /** Resolves when done; throws UsageError for bad arguments, anything else for a failure. */
  run(args: string[], terminal: Terminal): Promise<void>;
}

/** Bad command-line usage: exit code 2, a one-line message and a hint to --help. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * node:util parseArgs, strict and without positionals, with its errors turned into UsageErrors
 * (they name the flag but read like a stack trace otherwise). `--help` is left to the caller.
 */
export function parseFlags<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false })
      .values;
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, ".") : String(error);
    throw new UsageError(message);
  }
}

export function required<T>(value: T | undefined, flag: string): T {
  if (value === undefined || value === "") throw new UsageError(`missing required flag --${flag}`);
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const found = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!found) throw new UsageError(`--${flag} must be one of ${allowed.join(", ")} (got "${value}")`);
  return found;
}
