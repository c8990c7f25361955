import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";

export interface ClientApplication {
  appName: string;
  instances: {
    instanceId: string;
    sdkVersion: string | null;
    environment: string;
    strategies: string[];
    started: Date;
    interval: number;
    lastSeen: Date;
  }[];
}

/** GET /api/admin/metrics/applications: every application that registered, with its instances. */
export async function listClientApplications(db: Kysely<Database>): Promise<ClientApplication[]> {
  const rows = await db.selectFrom("client_instances").selectAll().orderBy("app_name").orderBy("instance_id").execute();
  const byApp = new Map<string, ClientApplication>();
  for (const row of rows) {
    const app = byApp.get(row.app_name) ?? { appName: row.app_name, instances: [] };
    app.instances.push({
      instanceId: row.instance_id,
      sdkVersion: row.sdk_version,
      environment: row.environment,
      strategies: Array.isArray(row.strategies) ? (row.strategies as string[]) : [],
      started: row.started,
      interval: row.interval,
      lastSeen: row.last_seen,
    });
    byApp.set(row.app_name, app);
  }
  return [...byApp.values()];
}

export interface FeatureMetricsRow {
  featureName: string;
  appName: string;
  environment: string;
  timestamp: Date;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

/** GET /api/admin/client-metrics/features/:name/raw: the hourly sums of one feature, oldest first. */
export async function featureMetricsRaw(db: Kysely<Database>, featureName: string): Promise<FeatureMetricsRow[]> {
  const feature = await db.selectFrom("features").select("name").where("name", "=", featureName).executeTakeFirst();
  if (!feature) throw new NotFoundError(`There is no feature "${featureName}".`);
  const rows = await db
    .selectFrom("client_metrics")
    .selectAll()
    .where("feature_name", "=", featureName)
    .orderBy("hour")
    .orderBy("app_name")
    .orderBy("environment")
    .execute();
  const variants = await db
    .selectFrom("client_metric_variants")
    .selectAll()
    .where("feature_name", "=", featureName)
    .orderBy("variant")
    .execute();
  return rows.map((row) => ({
    featureName: row.feature_name,
    appName: row.app_name,
    environment: row.environment,
    timestamp: row.hour,
    yes: Number(row.yes),
    no: Number(row.no),
    variants: Object.fromEntries(
      variants
        .filter((v) => v.app_name === row.app_name && v.environment === row.environment && v.hour.getTime() === row.hour.getTime())
        .map((v) => [v.variant, Number(v.count)]),
    ),
  }));
}
