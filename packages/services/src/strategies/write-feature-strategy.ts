import { randomUUID } from "node:crypto";
import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { directEnvironmentWrite } from "../change-requests/direct-write.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { lockLiveFeature } from "../feature-archive/lock-live-feature.ts";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "../features/locate-feature-environment.ts";
import type { FeatureStrategy } from "./feature-strategy.ts";
import { getFeatureStrategy } from "./list-feature-strategies.ts";
import { type ParsedStrategy, parseStrategy } from "./parse-strategy.ts";

const eventScope = (path: FeatureEnvironmentPath) => ({
  project: path.projectId,
  environment: path.environment,
  featureName: path.featureName,
});

/** Checks the path and queues writers of one feature on its row, as the variants writer does; an archived flag takes no writes. */
async function lockFeature(trx: Transaction<Database>, path: FeatureEnvironmentPath): Promise<void> {
  await locateFeatureEnvironment(trx, path);
  await lockLiveFeature(trx, path.featureName);
}

async function storeSegments(trx: Transaction<Database>, strategyId: string, segments: number[]): Promise<void> {
  await trx.deleteFrom("feature_strategy_segments").where("strategy_id", "=", strategyId).execute();
  if (segments.length === 0) return;
  await trx
    .insertInto("feature_strategy_segments")
    .values(segments.map((segment_id) => ({ strategy_id: strategyId, segment_id })))
    .execute();
}

const columns = (s: ParsedStrategy, sortOrder: number) => ({
  name: s.name,
  title: s.title ?? null,
  disabled: s.disabled,
  sort_order: sortOrder,
  constraints: JSON.stringify(s.constraints),
  parameters: JSON.stringify(s.parameters),
  variants: JSON.stringify(s.variants),
});

/** POST .../strategies: adds a strategy directly (the four-eyes rule applies). */
export async function addFeatureStrategy(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  input: unknown,
): Promise<FeatureStrategy> {
  return directEnvironmentWrite(db, by, path, (trx) => insertFeatureStrategy(trx, by, path, input));
}

/** PUT .../strategies/:id: replaces a strategy directly (the four-eyes rule applies). */
export async function updateFeatureStrategy(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  strategyId: string,
  input: unknown,
): Promise<FeatureStrategy> {
  return directEnvironmentWrite(db, by, path, (trx) => replaceFeatureStrategy(trx, by, path, strategyId, input));
}

/** DELETE .../strategies/:id, directly (the four-eyes rule applies). */
export async function deleteFeatureStrategy(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  strategyId: string,
): Promise<void> {
  await directEnvironmentWrite(db, by, path, (trx) => removeFeatureStrategy(trx, by, path, strategyId));
}

/** Stores a new strategy after the others (or at its sortOrder); a direct write and an applied change both end here. */
export async function insertFeatureStrategy(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  input: unknown,
): Promise<FeatureStrategy> {
  // Validated before the path is looked up: the body (400) comes before existence (404) (docs/errors.md#check-order).
  const strategy = await parseStrategy(trx, input, path.projectId);
  await lockFeature(trx, path);
  let sortOrder = strategy.sortOrder;
  if (sortOrder === undefined) {
    const last = await trx
      .selectFrom("feature_strategies")
      .select((eb) => eb.fn.max("sort_order").as("max"))
      .where("feature_name", "=", path.featureName)
      .where("environment_name", "=", path.environment)
      .executeTakeFirst();
    sortOrder = last?.max === null || last?.max === undefined ? 0 : last.max + 1;
  }
  const id = randomUUID();
  await trx
    .insertInto("feature_strategies")
    .values({ id, feature_name: path.featureName, environment_name: path.environment, ...columns(strategy, sortOrder) })
    .execute();
  await storeSegments(trx, id, strategy.segments);
  const created = await getFeatureStrategy(trx, path, id);
  await appendEvent(trx, by, { type: "feature-strategy-add", ...eventScope(path), data: created });
  return created;
}

/** Replaces a stored strategy; a sortOrder left out keeps its place. */
export async function replaceFeatureStrategy(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  strategyId: string,
  input: unknown,
): Promise<FeatureStrategy> {
  const strategy = await parseStrategy(trx, input, path.projectId);
  await lockFeature(trx, path);
  const before = await getFeatureStrategy(trx, path, strategyId);
  await trx
    .updateTable("feature_strategies")
    .set(columns(strategy, strategy.sortOrder ?? before.sortOrder))
    .where("id", "=", strategyId)
    .execute();
  await storeSegments(trx, strategyId, strategy.segments);
  const after = await getFeatureStrategy(trx, path, strategyId);
  await appendEvent(trx, by, { type: "feature-strategy-update", ...eventScope(path), data: after, preData: before });
  return after;
}

/** Removes a stored strategy. */
export async function removeFeatureStrategy(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  strategyId: string,
): Promise<void> {
  await lockFeature(trx, path);
  const before = await getFeatureStrategy(trx, path, strategyId);
  const deleted = await trx.deleteFrom("feature_strategies").where("id", "=", strategyId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new NotFoundError(`There is no strategy "${strategyId}".`);
  await appendEvent(trx, by, { type: "feature-strategy-remove", ...eventScope(path), data: null, preData: before });
}
