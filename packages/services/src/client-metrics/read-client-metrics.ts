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

/**
 * GET /api/admin/client-metrics/features/:name/raw: a feature's counts, oldest first: per day for the
 * days housekeeping rolled up, per hour after them (docs/sdk-protocols.md#metrics-storage). With
 * `hoursBack`, only the hours since then, as Unleash's `hoursBack` (docs/usage.md#exposures-by-hour).
 */
export async function featureMetricsRaw(
  db: Kysely<Database>,
  featureName: string,
  window: { hoursBack?: number | undefined; now?: Date } = {},
): Promise<FeatureMetricsRow[]> {
  const since = window.hoursBack === undefined ? null : new Date((window.now ?? new Date()).getTime() - window.hoursBack * 3_600_000);
  const feature = await db.selectFrom("features").select("name").where("name", "=", featureName).executeTakeFirst();
  if (!feature) throw new NotFoundError(`There is no feature "${featureName}".`);
  // One snapshot for the four reads: a roll-up that commits between them would count its hours twice or not at all.
  const [hours, hourVariants, days, dayVariants] = await db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(
      async (trx) =>
        [
          await trx
            .selectFrom("client_metrics")
            .select(["app_name", "environment", "hour as at", "yes", "no"])
            .where("feature_name", "=", featureName)
            .$if(since !== null, (q) => q.where("hour", ">=", since as Date))
            .execute(),
          await trx
            .selectFrom("client_metric_variants")
            .select(["app_name", "environment", "hour as at", "variant", "count"])
            .where("feature_name", "=", featureName)
            .$if(since !== null, (q) => q.where("hour", ">=", since as Date))
            .execute(),
          since !== null
            ? ([] as StoredCounts[])
            : await trx
                .selectFrom("client_metrics_daily")
                .select(["app_name", "environment", "day as at", "yes", "no"])
                .where("feature_name", "=", featureName)
                .execute(),
          since !== null
            ? ([] as StoredVariantCount[])
            : await trx
                .selectFrom("client_metric_variants_daily")
                .select(["app_name", "environment", "day as at", "variant", "count"])
                .where("feature_name", "=", featureName)
                .execute(),
        ] as const,
    );
  return [...rowsOf(featureName, days, dayVariants), ...rowsOf(featureName, hours, hourVariants)].sort(
    (a, b) => a.timestamp.getTime() - b.timestamp.getTime() || compare(a.appName, b.appName) || compare(a.environment, b.environment),
  );
}

interface StoredCounts {
  app_name: string;
  environment: string;
  at: Date;
  yes: number;
  no: number;
}

interface StoredVariantCount {
  app_name: string;
  environment: string;
  at: Date;
  variant: string;
  count: number;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One table's counts with their variant counts (bigint columns arrive as text from pg). */
function rowsOf(featureName: string, counts: StoredCounts[], variants: StoredVariantCount[]): FeatureMetricsRow[] {
  const keyOf = (r: { app_name: string; environment: string; at: Date }) => JSON.stringify([r.app_name, r.environment, r.at.getTime()]);
  const variantsByKey = new Map<string, [string, number][]>();
  for (const v of [...variants].sort((a, b) => compare(a.variant, b.variant))) {
    const key = keyOf(v);
    variantsByKey.set(key, [...(variantsByKey.get(key) ?? []), [v.variant, Number(v.count)]]);
  }
  return counts.map((row) => ({
    featureName,
    appName: row.app_name,
    environment: row.environment,
    timestamp: row.at,
    yes: Number(row.yes),
    no: Number(row.no),
    variants: Object.fromEntries(variantsByKey.get(keyOf(row)) ?? []),
  }));
}
