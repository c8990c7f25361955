import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { BUILT_IN_STRATEGIES } from "../strategies/strategy-type.ts";

/** A flag an application reported, as Unleash's `seenToggles` has it: the flag, or its name and `notFound`. */
type SeenFlag = { name: string; project: string; type: string; description: string | null } | { name: string; notFound: true };

/** A strategy an application's SDK implements: the defined one, or its name and `notFound`. */
type ImplementedStrategy = { name: string; description: string | null } | { name: string; notFound: true };

/** One application that SDKs registered or reported for, as Unleash's GET /api/admin/metrics/applications/:appName has it. */
export interface ClientApplicationDetails {
  appName: string;
  strategies: ImplementedStrategy[];
  instances: {
    appName: string;
    instanceId: string;
    sdkVersion: string | null;
    environment: string;
    started: Date;
    interval: number;
    lastSeen: Date;
  }[];
  seenToggles: SeenFlag[];
  links: { self: string };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * GET /api/admin/metrics/applications/:appName: the application's instances, the strategies they
 * implement and the flags it reported, known or not (docs/usage.md#applications). An application
 * exists once one of its SDKs registered or reported metrics.
 */
export async function clientApplication(db: Kysely<Database>, appName: string): Promise<ClientApplicationDetails> {
  const [instances, flagNames, unknownNames] = await Promise.all([
    db.selectFrom("client_instances").selectAll().where("app_name", "=", appName).orderBy("instance_id").execute(),
    db
      .selectFrom("client_metrics")
      .select("feature_name")
      .where("app_name", "=", appName)
      .union(db.selectFrom("client_metrics_daily").select("feature_name").where("app_name", "=", appName))
      .execute(),
    db.selectFrom("unknown_flags").select("name as feature_name").distinct().where("app_name", "=", appName).execute(),
  ]);
  if (instances.length === 0 && flagNames.length === 0 && unknownNames.length === 0) {
    throw new NotFoundError(`There is no application "${appName}".`);
  }
  const names = [...new Set([...flagNames, ...unknownNames].map((r) => r.feature_name))].sort(compare);
  const strategyNames = [
    ...new Set(instances.flatMap((i) => (Array.isArray(i.strategies) ? (i.strategies as unknown[]) : []).map(String))),
  ].sort(compare);
  const [features, strategies] = await Promise.all([
    names.length === 0
      ? []
      : db.selectFrom("features").select(["name", "project_id", "type", "description"]).where("name", "in", names).execute(),
    strategyNames.length === 0
      ? []
      : db.selectFrom("strategy_types").select(["name", "description"]).where("name", "in", strategyNames).execute(),
  ]);
  const featureByName = new Map(features.map((f) => [f.name, f]));
  const strategyByName = new Map<string, { description: string | null }>([
    ...BUILT_IN_STRATEGIES.map((s) => [s.name, s] as const),
    ...strategies.map((s) => [s.name, s] as const),
  ]);
  return {
    appName,
    strategies: strategyNames.map((name) => {
      const found = strategyByName.get(name);
      return found ? { name, description: found.description } : { name, notFound: true as const };
    }),
    instances: instances.map((row) => ({
      appName: row.app_name,
      instanceId: row.instance_id,
      sdkVersion: row.sdk_version,
      environment: row.environment,
      started: row.started,
      interval: row.interval,
      lastSeen: row.last_seen,
    })),
    seenToggles: names.map((name) => {
      const found = featureByName.get(name);
      return found
        ? { name, project: found.project_id, type: found.type, description: found.description }
        : { name, notFound: true as const };
    }),
    links: { self: `/api/applications/${appName}` },
  };
}
