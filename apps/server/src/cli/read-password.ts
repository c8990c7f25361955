import { UsageError } from "./command.ts";
import type { Terminal } from "./terminal.ts";

/** Ctrl-C at a password prompt. */
export class Interrupted extends Error {}

async function readAll(stdin: Terminal["stdin"]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads one line from a terminal without echoing it. */
function promptHidden(terminal: Terminal, prompt: string): Promise<string> {
  const { stdin, stderr } = terminal;
  // Echo goes off before the prompt shows, so nothing typed after it can be echoed.
  stdin.setRawMode?.(true);
  stderr.write(prompt);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let chars: string[] = [];
    const finish = (outcome: () => void) => {
      stdin.off("data", onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write("\n");
      outcome();
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return finish(() => resolve(chars.join("")));
        if (ch === "\u0003") return finish(() => reject(new Interrupted("interrupted")));
        if (ch === "\u0004" && chars.length === 0) return finish(() => reject(new UsageError("no password given")));
        if (ch === "\u007f" || ch === "\b") chars = chars.slice(0, -1);
        else if (ch >= " ") chars.push(ch);
      }
    };
    stdin.on("data", onData);
  });
}

/**
 * A password never comes from the command line, where `ps` and shell history would keep it: on a
 * terminal it is prompted for twice without echo; otherwise it is the one line on stdin.
 */
export async function readPassword(terminal: Terminal, what: string): Promise<string> {
  if (terminal.stdin.isTTY) {
    const first = await promptHidden(terminal, `${what}: `);
    const again = await promptHidden(terminal, `${what} (again): `);
    if (first !== again) throw new UsageError("the two passwords differ");
    return first;
  }
  const text = (await readAll(terminal.stdin)).replace(/\r?\n$/, "");
  if (text === "") throw new UsageError(`no password on stdin (pipe it in, e.g. printf '%s\\n' "$PASSWORD" | vexil ...)`);
  if (/[\r\n]/.test(text)) throw new UsageError("the password on stdin must be one line");
  return text;
}
