import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { MetricCounts } from "./client-metrics-buffer.ts";

const CHUNK = 500;

/** Adds drained counts to the stored sums, in one transaction; counts of unknown features are dropped. */
export async function storeClientMetrics(db: Kysely<Database>, counts: MetricCounts[]): Promise<number> {
  if (counts.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const names = [...new Set(counts.map((c) => c.featureName))];
    const known = new Set<string>();
    for (let i = 0; i < names.length; i += CHUNK) {
      const rows = await trx
        .selectFrom("features")
        .select("name")
        .where("name", "in", names.slice(i, i + CHUNK))
        .execute();
      for (const row of rows) known.add(row.name);
    }
    const kept = counts.filter((c) => known.has(c.featureName));
    for (let i = 0; i < kept.length; i += CHUNK) {
      const chunk = kept.slice(i, i + CHUNK);
      await trx
        .insertInto("client_metrics")
        .values(
          chunk.map((c) => ({
            feature_name: c.featureName,
            environment: c.environment,
            app_name: c.appName,
            hour: c.hour,
            yes: c.yes,
            no: c.no,
          })),
        )
        .onConflict((oc) =>
          oc.columns(["feature_name", "environment", "app_name", "hour"]).doUpdateSet((eb) => ({
            yes: eb("client_metrics.yes", "+", eb.ref("excluded.yes")),
            no: eb("client_metrics.no", "+", eb.ref("excluded.no")),
          })),
        )
        .execute();
      const variants = chunk.flatMap((c) =>
        [...c.variants].map(([variant, count]) => ({
          feature_name: c.featureName,
          environment: c.environment,
          app_name: c.appName,
          hour: c.hour,
          variant,
          count,
        })),
      );
      if (variants.length === 0) continue;
      await trx
        .insertInto("client_metric_variants")
        .values(variants)
        .onConflict((oc) =>
          oc
            .columns(["feature_name", "environment", "app_name", "hour", "variant"])
            .doUpdateSet((eb) => ({ count: eb("client_metric_variants.count", "+", eb.ref("excluded.count")) })),
        )
        .execute();
    }
    return kept.length;
  });
}
