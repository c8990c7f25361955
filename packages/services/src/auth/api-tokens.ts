import { createHash, randomBytes } from "node:crypto";
import { type CredentialLookup, type Database, tokenTag, userTag } from "@vexil/db";
import { type Kysely, type Selectable, sql } from "kysely";
import { NoAccessError, NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import type { RootRoleId } from "./permissions.ts";
import type { Principal } from "./principal.ts";
import { projectRolesOfUser } from "../project-roles/project-roles-of-user.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

type ApiTokenType = "admin" | "client" | "frontend" | "scim";

export interface ApiToken {
  id: number;
  tokenName: string;
  type: ApiTokenType | "personal";
  projects: string[];
  environment: string;
  expiresAt: Date | null;
  createdAt: Date;
}

export interface NewApiToken {
  tokenName: string;
  type: ApiTokenType;
  projects?: string[] | undefined;
  environment?: string | undefined;
  expiresAt?: Date | null | undefined;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newSecret = () => randomBytes(32).toString("hex");

function toApiToken(row: Selectable<Database["api_tokens"]>): ApiToken {
  return {
    id: row.id,
    tokenName: row.token_name,
    type: row.type as ApiToken["type"],
    projects: row.projects,
    environment: row.environment,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

/** Unleash's format: `<project>:<environment>.<secret>`, `*` for all, `[]` for several projects. */
function tokenPrefix(type: ApiTokenType, projects: string[], environment: string): string {
  if (type === "admin") return "*:*";
  const project = projects.length === 1 ? (projects[0] as string) : "[]";
  return `${project}:${environment}`;
}

/** Creates an API token; the returned secret is the whole token and is never shown again. */
export async function createApiToken(
  db: Kysely<Database>,
  by: Principal | null,
  input: NewApiToken,
): Promise<ApiToken & { secret: string }> {
  return inTransaction(db, async (trx) => {
    // Admin and SCIM tokens are not scoped: an admin token covers everything, a SCIM token only provisioning.
    const scoped = input.type === "client" || input.type === "frontend";
    const projects = !scoped ? ["*"] : input.projects?.length ? input.projects : ["*"];
    const environment = !scoped ? "*" : (input.environment ?? "development");
    if (scoped && environment === "*") {
      // An SDK is served one environment; Unleash refuses these with the same words.
      const kind = input.type === "client" ? "Client" : "Frontend";
      throw new ValidationError(`${kind} token cannot be scoped to all environments`, [
        { path: "environment", message: "name one environment" },
      ]);
    }
    if (scoped) {
      const known = await trx.selectFrom("environments").select("name").where("name", "=", environment).executeTakeFirst();
      if (!known) {
        throw new ValidationError(`There is no environment "${environment}".`, [{ path: "environment", message: "unknown environment" }]);
      }
      const named = projects.filter((p) => p !== "*");
      // Held until the token is stored, so that a project is not deleted under a token made for it.
      const found = named.length ? await trx.selectFrom("projects").select("id").where("id", "in", named).forKeyShare().execute() : [];
      const unknown = named.filter((p) => !found.some((f) => f.id === p));
      if (unknown.length) {
        const list = unknown.map((p) => `"${p}"`).join(", ");
        throw new ValidationError(`There is no project ${list}.`, [{ path: "projects", message: "unknown project" }]);
      }
    }
    // A SCIM token looks like no SDK's, as a personal token does: `scim:<secret>`.
    const secret = input.type === "scim" ? `scim:${newSecret()}` : `${tokenPrefix(input.type, projects, environment)}.${newSecret()}`;
    const row = await trx
      .insertInto("api_tokens")
      .values({
        type: input.type,
        token_name: input.tokenName,
        secret_hash: hashToken(secret),
        projects: JSON.stringify(projects),
        environment,
        expires_at: input.expiresAt ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const token = toApiToken(row);
    await appendEvent(trx, by, { type: "api-token-created", data: { ...token, secret: undefined } });
    return { ...token, secret };
  });
}

/** A personal access token `user:<secret>`, acting as the user who creates it. */
export async function createPersonalToken(
  db: Kysely<Database>,
  by: Principal,
  input: { description: string; expiresAt: Date },
): Promise<ApiToken & { secret: string }> {
  const owner = tokenOwner(by, "create one");
  // A token cannot mint the next one, so a stolen token ends when it expires or is revoked.
  if (by.kind === "user" && by.via !== "session") {
    throw new NoAccessError("Log in to create a personal access token: a personal access token cannot create another.");
  }
  return inTransaction(db, async (trx) => {
    if (input.expiresAt.getTime() <= Date.now()) {
      throw new ValidationError("expiresAt must be in the future.", [{ path: "expiresAt", message: "must be in the future" }]);
    }
    const secret = `user:${newSecret()}`;
    const row = await trx
      .insertInto("api_tokens")
      .values({
        type: "personal",
        token_name: input.description,
        secret_hash: hashToken(secret),
        projects: JSON.stringify(["*"]),
        environment: "*",
        user_id: owner,
        expires_at: input.expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const token = toApiToken(row);
    await appendEvent(trx, by, { type: "personal-token-created", data: { id: token.id, description: input.description } });
    return { ...token, secret };
  });
}

/** The admin, client and frontend tokens (never their secrets); personal ones are listed by their owners. */
export async function listApiTokens(db: Kysely<Database>): Promise<ApiToken[]> {
  const rows = await db.selectFrom("api_tokens").selectAll().where("type", "!=", "personal").orderBy("id").execute();
  return rows.map(toApiToken);
}

/** The caller's own personal access tokens. */
export async function listPersonalTokens(db: Kysely<Database>, by: Principal): Promise<ApiToken[]> {
  const owner = tokenOwner(by, "manage them");
  const rows = await db.selectFrom("api_tokens").selectAll().where("user_id", "=", owner).orderBy("id").execute();
  return rows.map(toApiToken);
}

/** Revokes an admin, client or frontend token; a personal one is revoked only by its owner. */
export async function deleteApiToken(db: Kysely<Database>, by: Principal | null, id: number): Promise<ApiToken> {
  return inTransaction(db, async (trx) => {
    const row = await trx.deleteFrom("api_tokens").where("id", "=", id).where("type", "!=", "personal").returningAll().executeTakeFirst();
    if (!row) throw new NotFoundError(`There is no token with id ${id}.`);
    const token = toApiToken(row);
    await appendEvent(trx, by, { type: "api-token-deleted", preData: token, data: null });
    return token;
  });
}

/** Revokes one of the caller's personal access tokens; another user's is as unknown as a missing one. */
export async function deletePersonalToken(db: Kysely<Database>, by: Principal, id: number): Promise<ApiToken> {
  const owner = tokenOwner(by, "manage them");
  return inTransaction(db, async (trx) => {
    const row = await trx.deleteFrom("api_tokens").where("id", "=", id).where("user_id", "=", owner).returningAll().executeTakeFirst();
    if (!row) throw new NotFoundError(`There is no token with id ${id}.`);
    const token = toApiToken(row);
    await appendEvent(trx, by, { type: "personal-token-deleted", preData: token, data: null });
    return token;
  });
}

function tokenOwner(by: Principal, toDo: string): number {
  if (by.kind !== "user") throw new NoAccessError(`Personal access tokens belong to a user; log in to ${toDo}.`);
  return by.userId;
}

/**
 * Who a token in the Authorization header stands for (null for an unknown or expired one), with
 * what a cache needs: what the answer depends on and when the token expires.
 */
export async function lookUpTokenPrincipal(db: Kysely<Database>, rawToken: string): Promise<CredentialLookup<Principal> | null> {
  const row = await db
    .selectFrom("api_tokens")
    .leftJoin("users", "users.id", "api_tokens.user_id")
    .select([
      "api_tokens.id",
      "api_tokens.type",
      "api_tokens.token_name",
      "api_tokens.projects",
      "api_tokens.environment",
      "users.id as userId",
      "users.username",
      "users.email",
      "users.root_role as rootRole",
      "users.active",
      // The database's clock decides expiry, here as everywhere.
      sql<number | null>`(extract(epoch from api_tokens.expires_at - now()) * 1000)::float8`.as("expiresInMs"),
    ])
    .where("api_tokens.secret_hash", "=", hashToken(rawToken))
    .where((eb) => eb.or([eb("api_tokens.expires_at", "is", null), eb("api_tokens.expires_at", ">", sql<Date>`now()`)]))
    .executeTakeFirst();
  if (!row) return null;
  const tags = [tokenTag(row.id)];
  const found = (principal: Principal): CredentialLookup<Principal> => ({ value: principal, tags, expiresInMs: row.expiresInMs });
  switch (row.type) {
    case "admin":
      return found({ kind: "admin-token", tokenId: row.id, tokenName: row.token_name });
    case "scim":
      return found({ kind: "scim-token", tokenId: row.id, tokenName: row.token_name });
    case "client":
    case "frontend":
      return found({
        kind: "sdk-token",
        tokenId: row.id,
        tokenName: row.token_name,
        type: row.type,
        projects: row.projects,
        environment: row.environment,
      });
    case "personal":
      // A deactivated user's tokens are deleted with the deactivation; this holds against any left behind.
      if (row.userId === null || row.rootRole === null || row.active === false) return null;
      tags.push(userTag(row.userId));
      return found({
        kind: "user",
        userId: row.userId,
        username: row.username ?? row.email ?? `user-${row.userId}`,
        rootRole: row.rootRole as RootRoleId,
        via: "personal-token",
        tokenId: row.id,
        projectRoles: await projectRolesOfUser(db, row.userId),
      });
  }
  return null;
}

const ADMIN_TOKEN = /^\*:\*\.[A-Za-z0-9_-]{16,}$/;

/** Creates the admin tokens named by INIT_ADMIN_API_TOKENS that do not exist yet. */
export async function ensureInitialAdminTokens(db: Kysely<Database>, tokens: string[]): Promise<number> {
  let created = 0;
  for (const token of tokens) {
    if (!ADMIN_TOKEN.test(token)) throw new ValidationError(`An initial admin token must look like "*:*.<secret of 16+ characters>".`);
    const inserted = await db
      .insertInto("api_tokens")
      .values({
        type: "admin",
        token_name: "init-admin-token",
        secret_hash: hashToken(token),
        projects: JSON.stringify(["*"]),
        environment: "*",
      })
      .onConflict((oc) => oc.column("secret_hash").doNothing())
      .executeTakeFirst();
    created += Number(inserted.numInsertedOrUpdatedRows ?? 0n);
  }
  return created;
}
