import { type Command, oneOf, parseFlags, required, UsageError } from "./command.ts";

const ROLES = ["Admin", "Editor", "Viewer"] as const;

/** A user as `vexil user add` was asked for it, its flags checked but the e-mail address. */
export interface UserRequest {
  username: string;
  role: (typeof ROLES)[number];
  email: string | undefined;
  name: string | undefined;
}

export const userAdd: Command = {
  words: ["user", "add"],
  summary: "create a user (the password is read from stdin or prompted for)",
  help: `Usage: vexil user add --username <name> --role <Admin|Editor|Viewer> [--email <address>] [--name <full name>]

Creates a user who can log in at POST /auth/simple/login. The password is never an argument:
on a terminal you are asked for it twice (nothing is echoed); otherwise it is the first line of
stdin, e.g.
  printf '%s\\n' "$PASSWORD" | vexil user add --username alice --role Editor
Passwords have 10 to 72 bytes. Roles: Admin (everything), Editor (features, variants, approving
and applying change requests), Viewer (reading).

With the embedded database, stop the server first (one process at a time).`,

  async run(args, terminal) {
    const flags = parseFlags(args, {
      username: { type: "string" },
      role: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
    });
    const username = required(flags.username, "username");
    if (username.length > 100) throw new UsageError("--username must be at most 100 characters");
    if (flags.name !== undefined && flags.name.length > 200) throw new UsageError("--name must be at most 200 characters");
    const role = oneOf(required(flags.role, "role"), ROLES, "role");
    const { runUserAdd } = await import("./run-user-add.ts");
    await runUserAdd({ username, role, email: flags.email, name: flags.name }, terminal);
  },
};
