import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { toUser } from "../users/user.ts";

export const CHANGE_REQUEST_STATES = ["Draft", "In review", "Approved", "Applied", "Cancelled", "Rejected", "Scheduled"] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];
/** Contract 3.4: what "pending" means. */
export const PENDING_STATES: ChangeRequestState[] = ["Draft", "In review", "Approved", "Scheduled"];
/** A user has at most one open request per project and environment. */
export const OPEN_STATES: ChangeRequestState[] = ["Draft", "In review", "Approved"];

export interface Actor {
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
  schedule?: { scheduledAt: Date; status: "pending" | "failed" | "suspended"; reason?: string };
}

/**
 * Assembles change requests with their changes, reviews and people in a fixed number of queries
 * (five), however many requests are asked for, so lists do not turn into N+1 queries.
 */
export async function loadChangeRequests(db: Kysely<Database>, ids: number[]): Promise<ChangeRequestView[]> {
  if (ids.length === 0) return [];
  const [requests, changes, reviews] = await Promise.all([
    db.selectFrom("change_requests").selectAll().where("id", "in", ids).orderBy("id").execute(),
    db.selectFrom("change_request_changes").selectAll().where("change_request_id", "in", ids).orderBy("id").execute(),
    db.selectFrom("change_request_reviews").selectAll().where("change_request_id", "in", ids).orderBy("id").execute(),
  ]);
  const userIds = [...new Set([...requests.map((r) => r.created_by_user_id), ...changes.map((c) => c.created_by_user_id), ...reviews.map((r) => r.user_id)])];
  const users = new Map(
    (await db.selectFrom("users").selectAll().where("id", "in", userIds).execute()).map((row) => {
      const user = toUser(row);
      return [row.id, { id: user.id, username: user.username ?? user.email, imageUrl: user.imageUrl }] as const;
    }),
  );
  const actor = (id: number): Actor => users.get(id) ?? { id, username: null, imageUrl: "" };

  return requests.map((r) => {
    const features = new Map<string, ChangeRequestView["features"][number]>();
    for (const c of changes) {
      if (c.change_request_id !== r.id) continue;
      let feature = features.get(c.feature_name);
      if (!feature) features.set(c.feature_name, (feature = { name: c.feature_name, changes: [] }));
      feature.changes.push({ id: c.id, action: c.action, payload: c.payload, createdAt: c.created_at, createdBy: actor(c.created_by_user_id) });
    }
    const mine = reviews.filter((v) => v.change_request_id === r.id);
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
