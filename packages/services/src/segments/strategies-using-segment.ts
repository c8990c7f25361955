import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { PENDING_STATES } from "../change-requests/change-request.ts";
import { getSegment } from "./list-segments.ts";

interface StrategyUsingSegment {
  id: string;
  featureName: string;
  projectId: string;
  environment: string;
  strategyName: string;
}

interface ChangeRequestStrategyUsingSegment extends Omit<StrategyUsingSegment, "id"> {
  /** The strategy's id when the change edits one; absent when it adds one. */
  id?: string;
  changeRequest: { id: number; title: string | null };
}

/** Unleash's segmentStrategiesSchema: where a segment is used, stored and proposed. */
export interface SegmentStrategies {
  strategies: StrategyUsingSegment[];
  changeRequestStrategies: ChangeRequestStrategyUsingSegment[];
}

const STRATEGY_CHANGES = ["addStrategy", "updateStrategy"];

/**
 * GET /segments/{id}/strategies: the strategies that use the segment (archived flags' too, since
 * they also keep it from being deleted), and those that pending change requests would make use it.
 */
export async function strategiesUsingSegment(db: Kysely<Database>, id: number): Promise<SegmentStrategies> {
  await getSegment(db, id);
  const stored = await db
    .selectFrom("feature_strategy_segments as fss")
    .innerJoin("feature_strategies as s", "s.id", "fss.strategy_id")
    .innerJoin("features as f", "f.name", "s.feature_name")
    .select(["s.id", "f.project_id", "s.feature_name", "s.name", "s.environment_name"])
    .where("fss.segment_id", "=", id)
    .orderBy("f.project_id")
    .orderBy("s.feature_name")
    .orderBy("s.environment_name")
    .orderBy("s.sort_order")
    .execute();
  // Pending changes are few; their payloads are read here rather than searched in SQL.
  const proposed = await db
    .selectFrom("change_request_changes as c")
    .innerJoin("change_requests as r", "r.id", "c.change_request_id")
    .select(["c.payload", "c.feature_name", "r.id as request_id", "r.title", "r.project_id", "r.environment_name"])
    .where("r.state", "in", PENDING_STATES)
    .where("c.action", "in", STRATEGY_CHANGES)
    .orderBy("r.id")
    .orderBy("c.id")
    .execute();
  return {
    strategies: stored.map((r) => ({
      id: r.id,
      featureName: r.feature_name,
      projectId: r.project_id,
      environment: r.environment_name,
      strategyName: r.name,
    })),
    changeRequestStrategies: proposed.flatMap((r) => {
      const payload = (r.payload ?? {}) as { id?: unknown; name?: unknown; segments?: unknown };
      if (!Array.isArray(payload.segments) || !payload.segments.includes(id)) return [];
      return [
        {
          ...(typeof payload.id === "string" ? { id: payload.id } : {}),
          featureName: r.feature_name,
          projectId: r.project_id,
          environment: r.environment_name,
          strategyName: String(payload.name),
          changeRequest: { id: r.request_id, title: r.title },
        },
      ];
    }),
  };
}
