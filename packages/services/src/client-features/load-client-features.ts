import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { variantsFromJson } from "../features/variant.ts";
import { constraintsFromJson } from "../strategies/constraint.ts";
import { strategyVariantsFromJson } from "../strategies/feature-strategy.ts";
import type { ClientFeature, ClientFeatureSet, ClientSegment, ClientStrategy } from "./client-feature.ts";

/** `["*"]` is every project. */
export const ALL_PROJECTS = "*";

/**
 * Reads what an environment serves to a set of projects: the flags that are not archived, by name, their switch and
 * variants there, their non-disabled strategies by sortOrder, their dependencies and the
 * segments those strategies use. One repeatable-read transaction, so the parts agree.
 */
export async function loadClientFeatures(db: Kysely<Database>, environment: string, projects: string[]): Promise<ClientFeatureSet> {
  const everyProject = projects.includes(ALL_PROJECTS);
  if (!everyProject && projects.length === 0) return { environment, features: [], segments: [], revisionId: 0 };
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const features = await trx
        .selectFrom("features as f")
        .leftJoin("feature_environments as fe", (join) =>
          join.onRef("fe.feature_name", "=", "f.name").on("fe.environment_name", "=", environment),
        )
        .select(["f.name", "f.type", "f.description", "f.project_id", "f.impression_data", "f.stale", "fe.enabled", "fe.variants"])
        .where("f.archived_at", "is", null)
        .$if(!everyProject, (q) => q.where("f.project_id", "in", projects))
        .orderBy("f.name")
        .execute();
      const strategies = await trx
        .selectFrom("feature_strategies as s")
        .innerJoin("features as f", "f.name", "s.feature_name")
        .selectAll("s")
        .where("s.environment_name", "=", environment)
        .where("s.disabled", "=", false)
        .where("f.archived_at", "is", null)
        .$if(!everyProject, (q) => q.where("f.project_id", "in", projects))
        .orderBy("s.feature_name")
        .orderBy("s.sort_order")
        .orderBy("s.created_at")
        .orderBy("s.id")
        .execute();
      const links = await trx
        .selectFrom("feature_strategy_segments as l")
        .innerJoin("feature_strategies as s", "s.id", "l.strategy_id")
        .innerJoin("features as f", "f.name", "s.feature_name")
        .select(["l.strategy_id", "l.segment_id"])
        .where("s.environment_name", "=", environment)
        .where("f.archived_at", "is", null)
        .$if(!everyProject, (q) => q.where("f.project_id", "in", projects))
        .orderBy("l.segment_id")
        .execute();
      const dependencies = await trx
        .selectFrom("feature_dependencies as d")
        .innerJoin("features as f", "f.name", "d.child")
        .selectAll("d")
        .where("f.archived_at", "is", null)
        .$if(!everyProject, (q) => q.where("f.project_id", "in", projects))
        .orderBy("d.child")
        .orderBy("d.parent")
        .execute();
      const segmentIds = [...new Set(links.map((l) => l.segment_id))];
      const segmentRows = segmentIds.length
        ? await trx.selectFrom("segments").select(["id", "name", "constraints"]).where("id", "in", segmentIds).orderBy("id").execute()
        : [];
      const revision = await trx
        .selectFrom("events")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst();

      const segmentsOf = new Map<string, number[]>();
      for (const link of links) segmentsOf.set(link.strategy_id, [...(segmentsOf.get(link.strategy_id) ?? []), link.segment_id]);
      const strategiesOf = new Map<string, ClientStrategy[]>();
      for (const row of strategies) {
        const strategy: ClientStrategy = {
          id: row.id,
          name: row.name,
          ...(row.title !== null ? { title: row.title } : {}),
          sortOrder: row.sort_order,
          constraints: constraintsFromJson(row.constraints),
          parameters: (row.parameters ?? {}) as Record<string, string>,
          variants: strategyVariantsFromJson(row.variants),
          segments: segmentsOf.get(row.id) ?? [],
        };
        strategiesOf.set(row.feature_name, [...(strategiesOf.get(row.feature_name) ?? []), strategy]);
      }
      const dependenciesOf = new Map<string, ClientFeature["dependencies"] & object>();
      for (const row of dependencies) {
        const variants = Array.isArray(row.variants) ? (row.variants as string[]) : [];
        const dependency = { feature: row.parent, enabled: row.enabled, ...(variants.length ? { variants } : {}) };
        dependenciesOf.set(row.child, [
          ...(dependenciesOf.get(row.child) ?? []),
          dependency as { feature: string; enabled: boolean; variants: string[] },
        ]);
      }
      const segments: ClientSegment[] = segmentRows.map((s) => ({
        id: s.id,
        name: s.name,
        constraints: constraintsFromJson(s.constraints),
      }));
      return {
        environment,
        revisionId: revision?.id ?? 0,
        segments,
        features: features.map((f) => {
          const feature: ClientFeature = {
            name: f.name,
            type: f.type,
            description: f.description,
            project: f.project_id,
            enabled: f.enabled ?? false,
            stale: f.stale,
            impressionData: f.impression_data,
            strategies: strategiesOf.get(f.name) ?? [],
            variants: variantsFromJson(f.variants),
          };
          const parents = dependenciesOf.get(f.name);
          return parents ? { ...feature, dependencies: parents } : feature;
        }),
      };
    });
}
