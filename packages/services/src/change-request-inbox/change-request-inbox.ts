import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import type { Permission } from "../auth/permissions.ts";
import { isAdmin, type Principal, principalHasPermission, projectRolesDeciding } from "../auth/principal.ts";
import { type ChangeRequestState, type ChangeRequestView, loadChangeRequests } from "../change-requests/change-request.ts";

/** The most requests the inbox lists at once, oldest first; its counts count them all (docs/limits.md#change-requests). */
const INBOX_LIMIT = 100;

/** What awaits the caller (docs/change-requests.md#the-reviewers-inbox). */
interface ChangeRequestInbox {
  /** Requests In review the caller may approve: not theirs (unless Admin), not approved by them yet. */
  review: number;
  /** Approved and Scheduled requests the caller may apply (or schedule). */
  apply: number;
  /** The first INBOX_LIMIT of them by id, each with the moves the caller may make. */
  changeRequests: ChangeRequestView[];
}

/** The moves that make a request the caller's to act on; cancelling one's own is not a review. */
const ACTS: ReadonlySet<ChangeRequestState> = new Set(["Approved", "Applied", "Scheduled"]);

/**
 * Where the caller holds `permission`, as a filter on a project column: everywhere but the projects
 * whose project roles refuse it (when the root role holds it), or only the projects whose roles
 * grant it (when it does not) (docs/project-roles.md#change-requests).
 */
function projectsHolding(by: Principal, permission: Permission): { everywhereBut: string[] } | { only: string[] } {
  const decided = by.kind === "user" ? Object.keys(by.projectRoles ?? {}).filter((p) => projectRolesDeciding(by, permission, p)) : [];
  if (principalHasPermission(by, permission)) {
    return { everywhereBut: decided.filter((p) => !principalHasPermission(by, permission, p)) };
  }
  return { only: decided.filter((p) => principalHasPermission(by, permission, p)) };
}

/**
 * The same rules as allowed-moves.ts, as SQL, so that counting needs no row per request: In review
 * for whoever may approve it in its project (a user with APPROVE_CHANGE_REQUEST there, not its author
 * unless Admin, who has not approved it yet), Approved and Scheduled for whoever holds
 * APPLY_CHANGE_REQUEST there. The list is then checked against the views' own actions, so that the
 * two cannot disagree in what is shown.
 */
function actionableRequests(db: Kysely<Database>, by: Principal) {
  const review = by.kind === "user" ? projectsHolding(by, "APPROVE_CHANGE_REQUEST") : { only: [] };
  const apply = projectsHolding(by, "APPLY_CHANGE_REQUEST");
  const none = (where: { everywhereBut: string[] } | { only: string[] }) => "only" in where && where.only.length === 0;
  if (none(review) && none(apply)) return undefined;
  const userId = by.kind === "user" ? by.userId : 0;
  return db
    .selectFrom("change_requests as cr")
    .innerJoin("change_request_settings as s", (join) =>
      join.onRef("s.project_id", "=", "cr.project_id").onRef("s.environment_name", "=", "cr.environment_name"),
    )
    .where("s.enabled", "=", true)
    .where((eb) => {
      const inProjects = (where: { everywhereBut: string[] } | { only: string[] }) =>
        "only" in where
          ? eb("cr.project_id", "in", where.only)
          : where.everywhereBut.length > 0
            ? eb("cr.project_id", "not in", where.everywhereBut)
            : eb.lit(true);
      const toReview = eb.and([
        eb("cr.state", "=", "In review"),
        inProjects(review),
        ...(isAdmin(by) ? [] : [eb("cr.created_by_user_id", "<>", userId)]),
        eb.not(
          eb.exists(
            eb
              .selectFrom("change_request_reviews as r")
              .select("r.id")
              .whereRef("r.change_request_id", "=", "cr.id")
              .where("r.kind", "=", "approval")
              .where("r.user_id", "=", userId),
          ),
        ),
      ]);
      const toApply = eb.and([eb("cr.state", "in", ["Approved", "Scheduled"]), inProjects(apply)]);
      return eb.or([...(none(review) ? [] : [toReview]), ...(none(apply) ? [] : [toApply])]);
    });
}

/**
 * The change requests across every project that the caller can act on now (review, apply,
 * schedule), in environments whose change requests are on: the reviewer's inbox
 * (docs/change-requests.md#the-reviewers-inbox). An SDK token acts on none.
 */
export async function changeRequestInbox(db: Kysely<Database>, by: Principal): Promise<ChangeRequestInbox> {
  const base = actionableRequests(db, by);
  if (!base) return { review: 0, apply: 0, changeRequests: [] };
  const [counts, ids] = await Promise.all([
    base
      .select([
        sql<number>`(count(*) filter (where cr.state = 'In review'))::int`.as("review"),
        sql<number>`(count(*) filter (where cr.state <> 'In review'))::int`.as("apply"),
      ])
      .executeTakeFirstOrThrow(),
    base.select("cr.id").orderBy("cr.id").limit(INBOX_LIMIT).execute(),
  ]);
  const views = await loadChangeRequests(
    db,
    ids.map((r) => r.id),
    by,
  );
  return { review: counts.review, apply: counts.apply, changeRequests: views.filter((v) => v.actions.some((a) => ACTS.has(a))) };
}
