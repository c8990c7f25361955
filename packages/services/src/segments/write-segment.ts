import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import { type Principal, principalHasPermission } from "../auth/principal.ts";
import { ConflictError, NameExistsError, NoAccessError, ValidationError } from "../errors/domain-error.ts";
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

/**
 * The four-eyes rule for a segment (docs/change-requests.md#four-eyes): editing it changes every
 * strategy that uses it, so where one of those is in an environment with change requests on, only a
 * holder of SKIP_CHANGE_REQUEST for that project may edit it directly.
 */
async function assertSegmentWriteAllowed(trx: Transaction<Database>, by: Principal | null, segment: Segment): Promise<void> {
  const places = await trx
    .selectFrom("feature_strategy_segments as fss")
    .innerJoin("feature_strategies as fs", "fs.id", "fss.strategy_id")
    .innerJoin("features as f", "f.name", "fs.feature_name")
    .innerJoin("change_request_settings as crs", (join) =>
      join.onRef("crs.project_id", "=", "f.project_id").onRef("crs.environment_name", "=", "fs.environment_name"),
    )
    .select(["f.project_id", "fs.environment_name"])
    .distinct()
    .where("fss.segment_id", "=", segment.id)
    .where("f.archived_at", "is", null)
    .where("crs.enabled", "=", true)
    .orderBy("f.project_id")
    .orderBy("fs.environment_name")
    .execute();
  for (const { project_id: projectId, environment_name: environment } of places) {
    if (by && principalHasPermission(by, "SKIP_CHANGE_REQUEST", projectId)) continue;
    throw new NoAccessError(
      `The segment "${segment.name}" is used in the "${environment}" environment of the project "${projectId}", where change requests are enabled: ` +
        `ask someone with the "SKIP_CHANGE_REQUEST" permission to edit it, or propose the change to the strategies that use it in a change request.`,
      "SKIP_CHANGE_REQUEST",
    );
  }
}

/** Replaces a segment; one in use may not move to a project other than its strategies'. */
export async function updateSegment(db: Kysely<Database>, by: Principal | null, id: number, input: unknown): Promise<Segment> {
  return inTransaction(db, async (trx) => {
    const values = await parseSegment(trx, input);
    const before = await getSegment(trx, id);
    await assertSegmentWriteAllowed(trx, by, before);
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
