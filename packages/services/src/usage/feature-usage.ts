import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";

/** Unleash's `featureUsageSchema`: the last hour's counts per environment and the applications that reported the flag. */
export interface FeatureUsage {
  featureName: string;
  lastHourUsage: { environment: string; timestamp: Date; yes: number; no: number }[];
  seenApplications: string[];
}

/**
 * GET /api/admin/client-metrics/features/:name: the counts of the last hour summed per environment
 * (over the applications), and every application that reported the flag while its counts are kept
 * (docs/usage.md#applications).
 */
export async function featureUsage(db: Kysely<Database>, featureName: string, now = new Date()): Promise<FeatureUsage> {
  const feature = await db.selectFrom("features").select("name").where("name", "=", featureName).executeTakeFirst();
  if (!feature) throw new NotFoundError(`There is no feature "${featureName}".`);
  const [lastHour, apps] = await Promise.all([
    db
      .selectFrom("client_metrics")
      .select(["environment", "hour", "yes", "no"])
      .where("feature_name", "=", featureName)
      .where("hour", ">=", new Date(now.getTime() - 3_600_000))
      .orderBy("environment")
      .orderBy("hour")
      .execute(),
    db
      .selectFrom("client_metrics")
      .select("app_name")
      .where("feature_name", "=", featureName)
      .union(db.selectFrom("client_metrics_daily").select("app_name").where("feature_name", "=", featureName))
      .orderBy("app_name")
      .execute(),
  ]);
  const byEnvironment = new Map<string, FeatureUsage["lastHourUsage"][number]>();
  for (const row of lastHour) {
    const found = byEnvironment.get(row.environment);
    if (found) {
      found.yes += Number(row.yes);
      found.no += Number(row.no);
    } else {
      byEnvironment.set(row.environment, { environment: row.environment, timestamp: row.hour, yes: Number(row.yes), no: Number(row.no) });
    }
  }
  return { featureName, lastHourUsage: [...byEnvironment.values()], seenApplications: apps.map((a) => a.app_name) };
}
