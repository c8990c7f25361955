import { type Kysely, sql } from "kysely";

// Single sign-on with OpenID Connect (docs/oidc.md): who a user is at the identity provider, and the
// sign-ins under way, kept in Postgres so that whichever instance the provider sends the browser
// back to can finish one, and only once.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("oidc_issuer", "text").addColumn("oidc_subject", "text").execute();
  // A subject is unique per issuer; sign-in looks the user up by both.
  await sql`create unique index users_oidc_identity_idx on users (oidc_issuer, oidc_subject) where oidc_subject is not null`.execute(db);

  await db.schema
    .createTable("oidc_logins")
    // The SHA-256 of the state: the state itself travels only in the browser's sealed cookie and the provider's redirect.
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("return_to", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oidc_logins_expires_idx").on("oidc_logins").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("oidc_logins").execute();
  await sql`drop index users_oidc_identity_idx`.execute(db);
  await db.schema.alterTable("users").dropColumn("oidc_subject").dropColumn("oidc_issuer").execute();
}
