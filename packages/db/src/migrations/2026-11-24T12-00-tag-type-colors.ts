import type { Kysely } from "kysely";

// Unleash 8.2 gives each tag type a colour (`#RRGGBB`, or none) and shows it on every tag of the
// type; the seeded `simple` type is white, as Unleash's own migration sets it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tag_types").addColumn("color", "text").execute();
  await db.updateTable("tag_types").set({ color: "#FFFFFF" }).where("name", "=", "simple").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tag_types").dropColumn("color").execute();
}
