import { createApiToken } from "@vexil/services";
import { loadConfig } from "../config.ts";
import { openMigratedDatabase } from "./open-database.ts";
import type { Terminal } from "./terminal.ts";
import type { TokenRequest } from "./token-create.ts";

/** `vexil token create`, its flags checked. */
export async function runTokenCreate(request: TokenRequest, terminal: Terminal): Promise<void> {
  const { tokenName, type, projects, environment, expiresAt } = request;
  const config = loadConfig(terminal.env);

  const db = await openMigratedDatabase(config, terminal);
  try {
    const token = await createApiToken(db.kysely, null, {
      tokenName,
      type,
      projects,
      environment,
      expiresAt,
    });
    const scope =
      type === "admin"
        ? ""
        : type === "scim"
          ? " for SCIM provisioning (/scim/v2)"
          : ` for ${token.projects.join(", ")} in ${token.environment}`;
    terminal.progress(`Created the ${type} token "${tokenName}" (id ${token.id})${scope}. Its secret is shown only now:`);
    terminal.print(token.secret);
  } finally {
    await db.close();
  }
}
