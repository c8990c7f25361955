import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { ConflictError, NameExistsError, ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { getSegment } from "./list-segments.ts";
import { strategiesUsingSegment } from "./strategies-using-segment.ts";
import { type Segment, segmentFromRow, segmentInputSchema } from "./segment.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

async function parseSegment(trx: Transaction<Database>, input: unknown) {
  const segment = parseInput(segmentInputSchema, input, "", "The segment");
  // A project named in the body that does not exist is a bad body (400), not a missing path (404).
  if (segment.project && !(await trx.selectFrom("projects").select("id").where("id", "=", segment.project).executeTakeFirst())) {
    throw new ValidationError(`There is no project "${segment.project}".`, [{ path: "project", message: "unknown project" }]);
  }
  return {
    name: segment.name,
    description: segment.description ?? null,
    project_id: segment.project ?? null,
    constraints: JSON.stringify(segment.constraints),
  };
}

async function assertNameFree(trx: Transaction<Database>, name: string, exceptId: number): Promise<void> {
  const taken = await trx.selectFrom("segments").select("id").where("name", "=", name).where("id", "!=", exceptId).executeTakeFirst();
  if (taken) throw new NameExistsError(`A segment named "${name}" already exists.`);
}

export async function createSegment(db: Kysely<Database>, by: Principal | null, input: unknown): Promise<Segment> {
  return inTransaction(db, async (trx) => {
    const values = await parseSegment(trx, input);
    const row = await trx
      .insertInto("segments")
      .values(values)
      .onConflict((oc) => oc.column("name").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NameExistsError(`A segment named "${values.name}" already exists.`);
    const created = segmentFromRow(row);
    await appendEvent(trx, by, { type: "segment-created", project: created.project, data: created });
    return created;
  });
}

/** Replaces a segment; one in use may not move to a project other than its strategies'. */
export async function updateSegment(db: Kysely<Database>, by: Principal | null, id: number, input: unknown): Promise<Segment> {
  return inTransaction(db, async (trx) => {
    const values = await parseSegment(trx, input);
    const before = await getSegment(trx, id);
    await assertNameFree(trx, values.name, id);
    if (values.project_id !== null) {
      const elsewhere = await trx
        .selectFrom("feature_strategy_segments as fss")
        .innerJoin("feature_strategies as fs", "fs.id", "fss.strategy_id")
        .innerJoin("features as f", "f.name", "fs.feature_name")
        .select("f.project_id")
        .where("fss.segment_id", "=", id)
        .where("f.project_id", "!=", values.project_id)
        .executeTakeFirst();
      if (elsewhere) {
        const message = `the segment is used in the project "${elsewhere.project_id}"`;
        throw new ValidationError(`The segment cannot belong to "${values.project_id}": ${message}.`, [{ path: "project", message }]);
      }
    }
    const row = await trx.updateTable("segments").set(values).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
    const after = segmentFromRow(row);
    await appendEvent(trx, by, { type: "segment-updated", project: after.project, data: after, preData: before });
    return after;
  });
}

/** Deletes a segment no strategy uses; one in use is a 409. */
export async function deleteSegment(db: Kysely<Database>, by: Principal | null, id: number): Promise<void> {
  return inTransaction(db, async (trx) => {
    const before = await getSegment(trx, id);
    // Locks the segment so that no strategy starts using it between the check and the delete.
    await trx.selectFrom("segments").select("id").where("id", "=", id).forUpdate().execute();
    const { strategies } = await strategiesUsingSegment(trx, id);
    if (strategies.length > 0) {
      // Named, so that whoever is refused knows where to go (the console links each one).
      const where = strategies.map((s) => `${s.strategyName} of "${s.featureName}" in ${s.environment} (project ${s.projectId})`);
      const more = where.length > 10 ? ` and ${where.length - 10} more` : "";
      throw new ConflictError(
        `The segment ${id} is used by strategies and cannot be deleted; remove it from them first: ${where.slice(0, 10).join(", ")}${more}.`,
      );
    }
    await trx.deleteFrom("segments").where("id", "=", id).execute();
    await appendEvent(trx, by, { type: "segment-deleted", project: before.project, data: null, preData: before });
  });
}
