import type { Kysely } from "kysely";

// Unleash 8.2's feature types as its running server lists them: its descriptions, the `sunset`
// type, and its order kept in a column (Unleash returns heap order, which an update reshuffles).
const TYPES = [
  { id: "release", name: "Release", description: "Roll out new or incomplete features. Expected lifetime ~40 days", lifetime_days: 40 },
  { id: "experiment", name: "Experiment", description: "A/B and multivariate testing. Expected lifetime ~40 days", lifetime_days: 40 },
  {
    id: "operational",
    name: "Operational",
    description: "Transition between technical implementations with minimal risk. Expected lifetime: ~7 days",
    lifetime_days: 7,
  },
  {
    id: "kill-switch",
    name: "Kill switch",
    description: "Quickly disable certain functionalities or features. Expected lifetime: permanent",
    lifetime_days: null,
  },
  {
    id: "permission",
    name: "Permission",
    description: "Control feature access based on user roles or entitlements. Expected lifetime: permanent",
    lifetime_days: null,
  },
  {
    id: "sunset",
    name: "Sunset",
    description: "Coordinate the planned removal of an existing feature. Expected lifetime: ~90 days",
    lifetime_days: 90,
  },
];

const EARLIER_DESCRIPTIONS: Record<string, string> = {
  release: "Release feature toggles are used to release new features.",
  experiment: "Experiment feature toggles are used to test and verify multiple different versions of a feature.",
  operational: "Operational feature toggles are used to control aspects of a rollout.",
  "kill-switch": "Kill switch feature toggles are used to quickly turn on or off critical functionality in your system.",
  permission: "Permission feature toggles are used to control permissions in your system.",
};

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("feature_types")
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  for (const [i, type] of TYPES.entries()) {
    // A lifetime an operator already changed is theirs: only the seed's own text and order are replaced.
    await db
      .insertInto("feature_types")
      .values({ ...type, sort_order: i })
      .onConflict((oc) => oc.column("id").doUpdateSet({ name: type.name, description: type.description, sort_order: i }))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("feature_types").where("id", "=", "sunset").execute();
  for (const [id, description] of Object.entries(EARLIER_DESCRIPTIONS)) {
    await db.updateTable("feature_types").set({ description }).where("id", "=", id).execute();
  }
  await db.schema.alterTable("feature_types").dropColumn("sort_order").execute();
}
