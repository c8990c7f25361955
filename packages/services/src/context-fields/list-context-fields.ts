import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { type ContextField, contextFieldFromRow } from "./context-field.ts";

/** A context field in the list, with how many live flags and projects use it in a strategy's constraints. */
export type ListedContextField = ContextField & { usedInFeatures: number; usedInProjects: number };

/** Strategies of live flags whose constraints name the field (docs/context-fields.md#in-use). */
export function strategiesNaming(db: Kysely<Database>, name: string) {
  return db
    .selectFrom("feature_strategies as s")
    .innerJoin("features as f", "f.name", "s.feature_name")
    .where("f.archived_at", "is", null)
    .where(sql<boolean>`exists (select 1 from jsonb_array_elements(s.constraints) c where c ->> 'contextName' = ${name})`);
}

/** Every context field, by name, with its use counted as Unleash counts it. */
export async function listContextFields(db: Kysely<Database>): Promise<ListedContextField[]> {
  const rows = await db.selectFrom("context_fields").selectAll().orderBy("name").execute();
  const { rows: uses } = await sql<{ name: string; projects: number; features: number }>`
    select c.name, count(distinct f.project_id)::int as projects, count(distinct f.name)::int as features
    from feature_strategies s
    join features f on f.name = s.feature_name
    cross join lateral (select distinct e ->> 'contextName' as name from jsonb_array_elements(s.constraints) e) c
    where f.archived_at is null
    group by c.name`.execute(db);
  const useOf = new Map(uses.map((u) => [u.name, u]));
  return rows.map((row) => {
    const use = useOf.get(row.name);
    return { ...contextFieldFromRow(row), usedInProjects: use?.projects ?? 0, usedInFeatures: use?.features ?? 0 };
  });
}

export async function getContextField(db: Kysely<Database>, name: string): Promise<ContextField> {
  const row = await db.selectFrom("context_fields").selectAll().where("name", "=", name).executeTakeFirst();
  if (!row) throw contextFieldNotFound(name);
  return contextFieldFromRow(row);
}

/** GET /context/{name}/strategies: the strategies of live flags that constrain on the field (404 for a field not registered). */
export async function strategiesUsingContextField(
  db: Kysely<Database>,
  name: string,
): Promise<{ id: string; projectId: string; featureName: string; strategyName: string; environment: string }[]> {
  await getContextField(db, name);
  const rows = await strategiesNaming(db, name)
    .select(["s.id", "f.project_id", "s.feature_name", "s.name", "s.environment_name"])
    .orderBy("f.project_id")
    .orderBy("s.feature_name")
    .orderBy("s.environment_name")
    .orderBy("s.sort_order")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    featureName: r.feature_name,
    strategyName: r.name,
    environment: r.environment_name,
  }));
}

export function contextFieldNotFound(name: string): NotFoundError {
  return new NotFoundError(`Could not find context field with name ${name}`);
}
