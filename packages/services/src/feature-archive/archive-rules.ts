import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { ConflictError } from "../errors/domain-error.ts";
import { nameIn } from "./locked-features.ts";

/** Change requests that are still going somewhere: their changes would touch an archived flag. */
const OPEN_STATES = ["Draft", "In review", "Approved", "Scheduled"];

/**
 * Parents among `names` that some other flag depends on and that would be left serving a child:
 * with `live`, children that are not archived (archiving); without, any child (deleting for good,
 * which would take the archived child's dependency with it). Children in `names` go along.
 */
export async function parentsWithChildren(
  db: Kysely<Database>,
  names: readonly string[],
  children: "live" | "any",
): Promise<{ parent: string; child: string }[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom("feature_dependencies as d")
    .innerJoin("features as c", "c.name", "d.child")
    .select(["d.parent", "d.child"])
    .where(nameIn("d.parent", names))
    .where((eb) => eb.not(nameIn("d.child", names)))
    .$if(children === "live", (q) => q.where("c.archived_at", "is", null))
    .orderBy("d.parent")
    .orderBy("d.child")
    .execute();
}

/** Refuses to leave a child without its parent (Unleash's rule and message, with the names). */
export async function refuseOrphans(db: Kysely<Database>, names: readonly string[], children: "live" | "any"): Promise<void> {
  const orphans = await parentsWithChildren(db, names, children);
  if (orphans.length === 0) return;
  const which = orphans.map((o) => `"${o.child}" depends on "${o.parent}"`).join(", ");
  const what =
    children === "live" ? "archive those children first, or together with their parents" : "delete those children first, or together";
  throw new ConflictError(`You can not archive/delete this feature since other features depend on it: ${which}; ${what}.`);
}

/**
 * Refuses to archive flags that an open change request changes (docs/flag-lifecycle.md#archive-revive-delete):
 * applying it would fail, and its reviewers would review a change nobody can make.
 */
export async function refuseFlagsInOpenChangeRequests(
  db: Kysely<Database>,
  projectId: string,
  names: readonly string[],
  applying?: number,
): Promise<void> {
  if (names.length === 0) return;
  const open = await db
    .selectFrom("change_request_changes as c")
    .innerJoin("change_requests as r", "r.id", "c.change_request_id")
    .select(["c.feature_name", "r.id", "r.state"])
    .distinct()
    .where("r.project_id", "=", projectId)
    .where("r.state", "in", OPEN_STATES)
    .where(nameIn("c.feature_name", names))
    .$if(applying !== undefined, (q) => q.where("r.id", "!=", applying as number))
    .orderBy("c.feature_name")
    .orderBy("r.id")
    .execute();
  if (open.length === 0) return;
  const which = open.map((o) => `"${o.feature_name}" in change request ${o.id} (${o.state})`).join(", ");
  throw new ConflictError(
    `A feature that an open change request changes cannot be archived: ${which}. Apply, reject or cancel the change request first.`,
  );
}
