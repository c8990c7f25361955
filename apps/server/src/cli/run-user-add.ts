import { createUser, RootRole } from "@vexil/services";
import { z } from "zod";
import { loadConfig } from "../config.ts";
import { UsageError } from "./command.ts";
import { openMigratedDatabase } from "./open-database.ts";
import { commandPasswordHasher } from "./password-hasher.ts";
import { readPassword } from "./read-password.ts";
import type { Terminal } from "./terminal.ts";
import type { UserRequest } from "./user-add.ts";

/** `vexil user add`, its flags parsed: the e-mail address is checked here, with the API's own rule (zod's). */
export async function runUserAdd(request: UserRequest, terminal: Terminal): Promise<void> {
  const { username, role, email, name } = request;
  if (email !== undefined && !z.email().max(320).safeParse(email).success) throw new UsageError("--email must be an e-mail address");
  const config = loadConfig(terminal.env);
  const password = await readPassword(terminal, `Password for ${username}`);

  const db = await openMigratedDatabase(config, terminal);
  const hasher = commandPasswordHasher(config);
  try {
    const user = await createUser(db.kysely, hasher, null, { username, email, name, password, rootRole: RootRole[role] });
    terminal.print(`Created user "${username}" (id ${user.id}) with the root role ${role}.`);
  } finally {
    await hasher.close();
    await db.close();
  }
}
