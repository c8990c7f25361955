import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { ClientFeatureSet, ClientSegment } from "../client-features/client-feature.ts";
import { ALL_PROJECTS, loadClientFeatures } from "../client-features/load-client-features.ts";
import { createCompiledEvaluator } from "../compiled-evaluation/compiled-evaluator.ts";
import { ValidationError } from "../errors/domain-error.ts";
import { constraintsFromJson } from "../strategies/constraint.ts";
import { strategyVariantsFromJson } from "../strategies/feature-strategy.ts";
import { type ExplainedStrategy, explainFeature } from "./explain-feature.ts";
import { contextCombinations, evaluationContext, type PlaygroundContext, playgroundContextSchema } from "./playground-context.ts";
import type { PlaygroundFeature } from "./playground-result.ts";

/** Evaluations one advanced request may ask for (environments x flags x contexts), as Unleash's default (docs/limits.md#playground). */
const MAX_PLAYGROUND_EVALUATIONS = 15_000;

const projectsSchema = z.union([z.literal(ALL_PROJECTS), z.array(z.string().min(1).max(100)).max(1000)]);

/** Unleash's playgroundRequestSchema (docs/playground.md#the-request). */
export const playgroundRequestSchema = z.strictObject({
  environment: z.string().min(1).max(100),
  projects: projectsSchema.optional(),
  context: playgroundContextSchema,
});

/** Unleash's advancedPlaygroundRequestSchema (docs/playground.md#the-advanced-playground). */
export const advancedPlaygroundRequestSchema = z.strictObject({
  environments: z.array(z.string().min(1).max(100)).min(1).max(100),
  projects: projectsSchema.optional(),
  context: playgroundContextSchema,
});

type Projects = z.output<typeof projectsSchema>;

/** An environment's flags as the SDKs are served them, and the strategies switched off there, which they are not. */
interface PlaygroundSnapshot {
  set: ClientFeatureSet;
  disabled: Map<string, ExplainedStrategy[]>;
  segments: Map<number, ClientSegment>;
}

async function requireEnvironments(db: Kysely<Database>, environments: string[]): Promise<void> {
  const found = new Set(
    (await db.selectFrom("environments").select("name").where("name", "in", environments).execute()).map((r) => r.name),
  );
  const missing = environments.findIndex((e) => !found.has(e));
  if (missing < 0) return;
  const message = `The environment "${environments[missing]}" does not exist.`;
  throw new ValidationError(message, [
    { path: environments.length > 1 ? `environments.${missing}` : "environment", message: "does not exist" },
  ]);
}

/**
 * What the client API serves for the environment and projects (the same read as the SDKs'), and
 * the disabled strategies of those flags with their segments, read after it: they change no answer,
 * so a moment between the two reads can only show one more or less of them.
 */
async function loadSnapshot(db: Kysely<Database>, environment: string, projects: Projects): Promise<PlaygroundSnapshot> {
  const list = projects === ALL_PROJECTS ? [ALL_PROJECTS] : projects;
  const set = await loadClientFeatures(db, environment, list);
  const segments = new Map(set.segments.map((s) => [s.id, s]));
  const disabled = new Map<string, ExplainedStrategy[]>();
  if (set.features.length === 0) return { set, disabled, segments };
  const served = new Set(set.features.flatMap((f) => f.strategies.map((s) => s.id)));
  const rows = await db
    .selectFrom("feature_strategies as s")
    .innerJoin("features as f", "f.name", "s.feature_name")
    .selectAll("s")
    .where("s.environment_name", "=", environment)
    .where("s.disabled", "=", true)
    .where("f.archived_at", "is", null)
    .$if(projects !== ALL_PROJECTS, (q) => q.where("f.project_id", "in", list))
    .orderBy("s.sort_order")
    .orderBy("s.created_at")
    .orderBy("s.id")
    .execute();
  const fresh = rows.filter((r) => !served.has(r.id));
  const links = fresh.length
    ? await db
        .selectFrom("feature_strategy_segments")
        .selectAll()
        .where(
          "strategy_id",
          "in",
          fresh.map((r) => r.id),
        )
        .orderBy("segment_id")
        .execute()
    : [];
  const missing = [...new Set(links.map((l) => l.segment_id))].filter((id) => !segments.has(id));
  if (missing.length) {
    const extra = await db.selectFrom("segments").select(["id", "name", "constraints"]).where("id", "in", missing).execute();
    for (const s of extra) segments.set(s.id, { id: s.id, name: s.name, constraints: constraintsFromJson(s.constraints) });
  }
  for (const row of fresh) {
    const strategy: ExplainedStrategy = {
      id: row.id,
      name: row.name,
      ...(row.title !== null ? { title: row.title } : {}),
      sortOrder: row.sort_order,
      constraints: constraintsFromJson(row.constraints),
      parameters: (row.parameters ?? {}) as Record<string, string>,
      variants: strategyVariantsFromJson(row.variants),
      segments: links.filter((l) => l.strategy_id === row.id).map((l) => l.segment_id),
      disabled: true,
    };
    disabled.set(row.feature_name, [...(disabled.get(row.feature_name) ?? []), strategy]);
  }
  return { set, disabled, segments };
}

/**
 * Every flag of a snapshot for a context: the compiled evaluator (made once per snapshot) answers,
 * the explaining pass says why.
 */
function snapshotEvaluator(snapshot: PlaygroundSnapshot): (context: PlaygroundContext) => PlaygroundFeature[] {
  const { set } = snapshot;
  const evaluator = createCompiledEvaluator(set);
  const features = new Map(set.features.map((f) => [f.name, f]));
  return (context) => {
    const evaluationInput = evaluationContext(context);
    const evaluations = new Map(evaluator.evaluateEvery(evaluationInput).map((e) => [e.name, e]));
    const input = {
      environment: set.environment,
      context: evaluationInput,
      segments: snapshot.segments,
      features,
      evaluations,
    };
    return set.features.map((feature) => {
      const served: ExplainedStrategy[] = feature.strategies.map((s) => ({ ...s, disabled: false }));
      // Stable: served strategies keep their order, each disabled one goes where its sortOrder puts it.
      const strategies = [...served, ...(snapshot.disabled.get(feature.name) ?? [])].sort((a, b) => a.sortOrder - b.sortOrder);
      return explainFeature(feature, strategies, input);
    });
  };
}

/** `POST /api/admin/playground`: every flag of the projects in one environment, for one context (docs/playground.md). */
export async function evaluatePlayground(
  db: Kysely<Database>,
  request: z.output<typeof playgroundRequestSchema>,
): Promise<{ input: typeof request; features: PlaygroundFeature[] }> {
  await requireEnvironments(db, [request.environment]);
  const snapshot = await loadSnapshot(db, request.environment, request.projects ?? ALL_PROJECTS);
  return { input: request, features: snapshotEvaluator(snapshot)(request.context) };
}

/** One flag in one environment for one of the advanced playground's contexts. */
type AdvancedPlaygroundEntry = PlaygroundFeature & { environment: string; context: PlaygroundContext };

/**
 * `POST /api/admin/playground/advanced` (docs/playground.md#the-advanced-playground): every flag in
 * each environment for each context the request's comma-separated values make, grouped by flag
 * and environment; refused (400) past MAX_PLAYGROUND_EVALUATIONS evaluations, before any is made.
 */
export async function evaluateAdvancedPlayground(
  db: Kysely<Database>,
  request: z.output<typeof advancedPlaygroundRequestSchema>,
): Promise<{
  input: typeof request;
  features: { name: string; projectId: string; environments: Record<string, AdvancedPlaygroundEntry[]> }[];
}> {
  const environments = [...new Set(request.environments)];
  await requireEnvironments(db, environments);
  const snapshots: PlaygroundSnapshot[] = [];
  for (const environment of environments) snapshots.push(await loadSnapshot(db, environment, request.projects ?? ALL_PROJECTS));
  const flags = snapshots[0]?.set.features.length ?? 0;
  const perContext = environments.length * flags;
  const contexts = contextCombinations(request.context, Math.floor(MAX_PLAYGROUND_EVALUATIONS / Math.max(perContext, 1)));
  if (!contexts) {
    const message = `Rejecting evaluation as it would evaluate more than ${MAX_PLAYGROUND_EVALUATIONS} combinations: reduce the number of environments (${environments.length}), flags (${flags}) or context values separated by commas.`;
    throw new ValidationError(message, [{ path: "context", message: "too many combinations" }]);
  }
  const byName = new Map<string, { name: string; projectId: string; environments: Record<string, AdvancedPlaygroundEntry[]> }>();
  for (const snapshot of snapshots) {
    const environment = snapshot.set.environment;
    const evaluate = snapshotEvaluator(snapshot);
    for (const context of contexts) {
      for (const feature of evaluate(context)) {
        let entry = byName.get(feature.name);
        if (!entry) byName.set(feature.name, (entry = { name: feature.name, projectId: feature.projectId, environments: {} }));
        (entry.environments[environment] ??= []).push({ ...feature, environment, context });
      }
    }
  }
  return { input: request, features: [...byName.values()] };
}
