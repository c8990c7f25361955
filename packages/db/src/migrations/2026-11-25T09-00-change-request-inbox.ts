import { type Kysely, sql } from "kysely";

// The reviewer's inbox reads, across projects, only the requests someone can act on
// (docs/change-requests.md#the-reviewers-inbox): a few among many finished ones.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index change_requests_actionable_idx on change_requests (id) where state in ('In review', 'Approved', 'Scheduled')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("change_requests_actionable_idx").execute();
}
