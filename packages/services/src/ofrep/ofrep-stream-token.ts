import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import type { Principal } from "../auth/principal.ts";

/**
 * The SDK (or admin) token an OFREP event stream was issued to, while it still exists and has not
 * expired (docs/ofrep.md#ofrep): a browser's EventSource sends no header, so the stream's
 * URL names the token by id, and the token's scope is what the stream follows.
 */
export async function ofrepStreamToken(db: Kysely<Database>, tokenId: number): Promise<Principal | null> {
  const row = await db
    .selectFrom("api_tokens")
    .select(["id", "type", "token_name", "projects", "environment"])
    .where("id", "=", tokenId)
    .where("type", "in", ["admin", "client", "frontend"])
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", sql<Date>`now()`)]))
    .executeTakeFirst();
  if (!row) return null;
  if (row.type === "admin") return { kind: "admin-token", tokenId: row.id, tokenName: row.token_name };
  return {
    kind: "sdk-token",
    tokenId: row.id,
    tokenName: row.token_name,
    type: row.type as "client" | "frontend",
    projects: row.projects,
    environment: row.environment,
  };
}
