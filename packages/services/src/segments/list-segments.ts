import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { type Segment, segmentFromRow } from "./segment.ts";

/** Every segment, by id. */
export async function listSegments(db: Kysely<Database>): Promise<Segment[]> {
  return (await db.selectFrom("segments").selectAll().orderBy("id").execute()).map(segmentFromRow);
}

export async function getSegment(db: Kysely<Database>, id: number): Promise<Segment> {
  const row = await db.selectFrom("segments").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no segment ${id}.`);
  return segmentFromRow(row);
}
