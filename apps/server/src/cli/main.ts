// Only what parses the command line is imported here: each command imports the database, the
// server or the services when it runs, so that --help, --version and a typo answer at once.
import { type Command, UsageError } from "./command.ts";
import { demo } from "./demo.ts";
import { exportCommand } from "./export.ts";
import { importCommand } from "./import.ts";
import { migrate } from "./migrate.ts";
import { migrateFromUnleash } from "./migrate-from-unleash.ts";
import { Interrupted } from "./read-password.ts";
import { serve } from "./serve.ts";
import type { Terminal } from "./terminal.ts";
import { tokenCreate } from "./token-create.ts";
import { userAdd } from "./user-add.ts";

const COMMANDS: Command[] = [serve, migrate, userAdd, tokenCreate, demo, exportCommand, importCommand, migrateFromUnleash];

const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

function overview(commands: Command[], usage: string): string {
  const width = Math.max(...commands.map((c) => c.words.join(" ").length));
  const lines = commands.map((c) => `  vexil ${c.words.join(" ").padEnd(width)}  ${c.summary}`);
  return `Usage: ${usage}

${lines.join("\n")}

"vexil <command> --help" tells more about one, "vexil --version" prints the version. Configuration
comes from the same environment variables as the server's (DATABASE_URL, DATA_DIR, ...; see the
README).
Exit codes: 0 done, 1 failed (the message says why), 2 bad usage.`;
}

const wantsHelp = (args: string[]) => args.some((a) => a === "--help" || a === "-h");

/**
 * Runs one command line and returns its exit code; "running" when the command (serve) goes on
 * after returning. Messages for a person go to stderr, results to stdout.
 */
export async function runCli(argv: string[], terminal: Terminal, version: () => string): Promise<number | "running"> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    terminal.stdout.write(`vexil ${version()}\n`);
    return EXIT.ok;
  }
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    (first === undefined ? terminal.stderr : terminal.stdout).write(`${overview(COMMANDS, "vexil <command> [flags]")}\n`);
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  const group = COMMANDS.filter((c) => c.words[0] === first);
  if (!group.length) return usageFailure(`vexil: unknown command "${first}"`, "vexil --help", terminal);

  const command = group.find((c) => c.words.every((w, i) => argv[i] === w));
  if (!command) {
    // "vexil user" or "vexil user frob": the group's own help, or what it takes.
    if (rest.length === 0 || wantsHelp(rest.slice(0, 1))) {
      const usage = `vexil ${first} <${group.map((c) => c.words[1]).join("|")}> [flags]`;
      (rest.length ? terminal.stdout : terminal.stderr).write(`${overview(group, usage)}\n`);
      return rest.length ? EXIT.ok : EXIT.usage;
    }
    return usageFailure(`vexil ${first}: unknown command "${rest[0]}"`, `vexil ${first} --help`, terminal);
  }

  const name = `vexil ${command.words.join(" ")}`;
  const args = argv.slice(command.words.length);
  if (wantsHelp(args)) {
    terminal.stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }
  try {
    await command.run(args, terminal);
    return command.keepsRunning ? "running" : EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(`${name}: ${error.message}`, `${name} --help`, terminal);
    if (error instanceof Interrupted) return EXIT.interrupted;
    const { failureMessage } = await import("./failure-message.ts");
    terminal.progress(failureMessage(name, error));
    return EXIT.failure;
  }
}

function usageFailure(message: string, help: string, terminal: Terminal): number {
  terminal.progress(`${message} (see "${help}")`);
  return EXIT.usage;
}
