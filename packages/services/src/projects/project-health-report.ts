import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { FeatureType } from "../feature-types/feature-type.ts";
import { listFeatureTypes } from "../feature-types/list-feature-types.ts";
import { type FeatureListItem, projectFeatureItems } from "../features/list-features.ts";
import { projectNotFound } from "./require-project.ts";

/**
 * Unleash's health report of a project (`GET /api/admin/projects/:projectId/health-report`).
 * Vexil has no project modes, members, favourites, feature limits or naming patterns: those fields
 * say what Vexil does (open, nobody, none); docs/flag-lifecycle.md#project-health says so.
 */
export interface ProjectHealthReport {
  version: 1;
  name: string;
  description: string | null;
  defaultStickiness: "default";
  mode: "open";
  featureLimit: null;
  members: 0;
  favorite: false;
  /** 0-100: 100 less the shares of stale and of potentially stale flags. */
  health: number;
  technicalDebt: number;
  createdAt: Date;
  environments: { environment: string }[];
  /** The flags that are not archived, by name. */
  features: FeatureListItem[];
  potentiallyStaleCount: number;
  activeCount: number;
  staleCount: number;
}

const DAY_MS = 86_400_000;

/** Unleash's rule, computed at the time of asking: not stale, and at least its type's lifetime old. */
function isPotentiallyStale(feature: FeatureListItem, lifetimes: Map<string, number | null>, now: number): boolean {
  const lifetime = lifetimes.get(feature.type);
  return !feature.stale && lifetime != null && now - feature.createdAt.getTime() >= lifetime * DAY_MS;
}

/** The counts and the rating of a project's flags, as Unleash computes them. */
function healthOf(features: FeatureListItem[], types: FeatureType[], now: number) {
  const lifetimes = new Map(types.map((t) => [t.id, t.lifetimeDays]));
  const staleCount = features.filter((f) => f.stale).length;
  const potentiallyStaleCount = features.filter((f) => isPotentiallyStale(f, lifetimes, now)).length;
  const total = features.length;
  const share = (count: number) => (total === 0 ? 0 : (count / total) * 100);
  const health = Math.round(100 - share(staleCount) - share(potentiallyStaleCount));
  return { health, potentiallyStaleCount, activeCount: total - staleCount, staleCount };
}

export async function projectHealthReport(db: Kysely<Database>, projectId: string): Promise<ProjectHealthReport> {
  const project = await db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirst();
  if (!project) throw projectNotFound(projectId);
  const environments = await db
    .selectFrom("project_environments as pe")
    .innerJoin("environments as e", "e.name", "pe.environment_name")
    .select("e.name")
    .where("pe.project_id", "=", projectId)
    .orderBy("e.sort_order")
    .orderBy("e.name")
    .execute();
  const features = await projectFeatureItems(db, projectId, "live");
  const { health, ...counts } = healthOf(features, await listFeatureTypes(db), Date.now());
  return {
    version: 1,
    name: project.name,
    description: project.description,
    defaultStickiness: "default",
    mode: "open",
    featureLimit: null,
    members: 0,
    favorite: false,
    health,
    technicalDebt: 100 - health,
    createdAt: project.created_at,
    environments: environments.map((e) => ({ environment: e.name })),
    features,
    ...counts,
  };
}
