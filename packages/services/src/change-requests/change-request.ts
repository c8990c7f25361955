import { type Database, preparedQuery } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { imageUrlFor } from "../users/user.ts";
import { allowedMoves } from "./allowed-moves.ts";

export const CHANGE_REQUEST_STATES = ["Draft", "In review", "Approved", "Applied", "Cancelled", "Rejected", "Scheduled"] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];
/** What "pending" means (docs/change-requests.md#pending-change-requests). */
export const PENDING_STATES: ChangeRequestState[] = ["Draft", "In review", "Approved", "Scheduled"];

interface Actor {
  id: number;
  username: string | null;
  imageUrl: string;
}

export interface ChangeRequestView {
  id: number;
  title?: string;
  environment: string;
  minApprovals: number;
  project: string;
  features: { name: string; changes: { id: number; action: string; payload: unknown; createdAt: Date; createdBy: Actor }[] }[];
  segments: never[];
  approvals: { createdBy: Actor; createdAt: Date }[];
  rejections: { createdBy: Actor; createdAt: Date; text?: string }[];
  comments: { id: number; text: string; createdBy: Actor; createdAt: Date }[];
  createdBy: Actor;
  createdAt: Date;
  state: ChangeRequestState;
  /** What a reviewer read: the id of its latest change (0 with none); a move naming an older one is refused. */
  version: number;
  schedule?: { scheduledAt: Date; status: "pending" | "failed" | "suspended"; reason?: string };
  /** The states the reader may move it to now and that would change it: what the console offers; a move to any other is refused, but for a repeated approval. */
  actions: ChangeRequestState[];
}

// Lists such as the pending list run these on every request, as prepared statements taking an
// array of ids (a Kysely `in (...)` list would change its text with its length).
const requestsByIds = preparedQuery("vexil_change_requests_by_ids", (db, p: { ids: number[] }) =>
  db
    .selectFrom("change_requests")
    .select([
      "id",
      "project_id",
      "environment_name",
      "title",
      "state",
      "created_by_user_id",
      "min_approvals",
      "created_at",
      "scheduled_at",
      "schedule_status",
      "schedule_reason",
    ])
    .where("id", "=", (eb) => eb.fn.any(eb.val(p.ids)))
    .orderBy("id"),
);
const changesByRequestIds = preparedQuery("vexil_change_request_changes_by_ids", (db, p: { ids: number[] }) =>
  db
    .selectFrom("change_request_changes")
    .select(["id", "change_request_id", "feature_name", "action", "payload", "created_by_user_id", "created_at"])
    .where("change_request_id", "=", (eb) => eb.fn.any(eb.val(p.ids)))
    .orderBy("id"),
);
const reviewsByRequestIds = preparedQuery("vexil_change_request_reviews_by_ids", (db, p: { ids: number[] }) =>
  db
    .selectFrom("change_request_reviews")
    .select(["id", "change_request_id", "kind", "user_id", "text", "created_at"])
    .where("change_request_id", "=", (eb) => eb.fn.any(eb.val(p.ids)))
    .orderBy("id"),
);
const peopleByIds = preparedQuery("vexil_change_request_people", (db, p: { ids: number[] }) =>
  db
    .selectFrom("users")
    .select(["id", "username", "email"])
    .where("id", "=", (eb) => eb.fn.any(eb.val(p.ids))),
);

/**
 * Assembles change requests with their changes, reviews and people in a fixed number of queries
 * (five), however many requests are asked for, so lists do not turn into N+1 queries; each says
 * what `reader` may do with it.
 */
export async function loadChangeRequests(db: Kysely<Database>, ids: number[], reader: Principal): Promise<ChangeRequestView[]> {
  if (ids.length === 0) return [];
  const [requests, changes, reviews] = await Promise.all([
    requestsByIds.execute(db, { ids }),
    changesByRequestIds.execute(db, { ids }),
    reviewsByRequestIds.execute(db, { ids }),
  ]);
  const userIds = [
    ...new Set([
      ...requests.map((r) => r.created_by_user_id),
      ...changes.map((c) => c.created_by_user_id),
      ...reviews.map((r) => r.user_id),
    ]),
  ];
  const users = new Map(
    (await peopleByIds.execute(db, { ids: userIds })).map(
      (row) => [row.id, { id: row.id, username: row.username ?? row.email, imageUrl: imageUrlFor(row) }] as const,
    ),
  );
  const actor = (id: number): Actor => users.get(id) ?? { id, username: null, imageUrl: "" };

  return requests.map((r) => {
    const features = new Map<string, ChangeRequestView["features"][number]>();
    for (const c of changes) {
      if (c.change_request_id !== r.id) continue;
      let feature = features.get(c.feature_name);
      if (!feature) features.set(c.feature_name, (feature = { name: c.feature_name, changes: [] }));
      feature.changes.push({
        id: c.id,
        action: c.action,
        payload: c.payload,
        createdAt: c.created_at,
        createdBy: actor(c.created_by_user_id),
      });
    }
    const mine = reviews.filter((v) => v.change_request_id === r.id);
    let version = 0;
    for (const c of changes) if (c.change_request_id === r.id && c.id > version) version = c.id;
    const view: ChangeRequestView = {
      id: r.id,
      ...(r.title ? { title: r.title } : {}),
      environment: r.environment_name,
      minApprovals: r.min_approvals,
      project: r.project_id,
      features: [...features.values()],
      segments: [],
      approvals: mine.filter((v) => v.kind === "approval").map((v) => ({ createdBy: actor(v.user_id), createdAt: v.created_at })),
      rejections: mine
        .filter((v) => v.kind === "rejection")
        .map((v) => ({ createdBy: actor(v.user_id), createdAt: v.created_at, ...(v.text ? { text: v.text } : {}) })),
      comments: mine
        .filter((v) => v.kind === "comment")
        .map((v) => ({ id: v.id, text: v.text ?? "", createdBy: actor(v.user_id), createdAt: v.created_at })),
      createdBy: actor(r.created_by_user_id),
      createdAt: r.created_at,
      state: r.state as ChangeRequestState,
      version,
      // An approval the reader has given already would change nothing (a second one is accepted
      // and not counted), so it is not offered again.
      actions: allowedMoves(reader, {
        id: r.id,
        state: r.state as ChangeRequestState,
        environment: r.environment_name,
        project: r.project_id,
        authorId: r.created_by_user_id,
      }).filter(
        (to) => to !== "Approved" || !mine.some((v) => v.kind === "approval" && reader.kind === "user" && v.user_id === reader.userId),
      ),
    };
    if (r.state === "Scheduled" && r.scheduled_at) {
      view.schedule = {
        scheduledAt: r.scheduled_at,
        status: (r.schedule_status ?? "pending") as "pending" | "failed" | "suspended",
        ...(r.schedule_reason ? { reason: r.schedule_reason } : {}),
      };
    }
    return view;
  });
}
