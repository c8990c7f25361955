import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Permission } from "../auth/permissions.ts";
import { type Principal, principalHasPermission } from "../auth/principal.ts";
import { enabledChangeRequestSettings } from "../change-requests/change-request-settings.ts";
import { BUILT_IN_STRATEGY_NAMES } from "../strategies/strategy-type.ts";
import type { FeaturesBatchImport, ImportValidation } from "./features-batch-document.ts";

/** Unleash's names for the permissions an import needs, as its validate answer shows them. */
const DISPLAY_NAMES: Partial<Record<Permission, string>> = {
  UPDATE_FEATURE: "Update feature flags",
  CREATE_TAG_TYPE: "Create tag types",
  DELETE_FEATURE_STRATEGY: "Delete activation strategies",
  CREATE_FEATURE_STRATEGY: "Create activation strategies",
  UPDATE_FEATURE_ENVIRONMENT_VARIANTS: "Update variants",
  CREATE_FEATURE: "Create feature flags",
  SKIP_CHANGE_REQUEST: "Skip change request process (API-only)",
};

/** What an import would meet, found before anything is written; the import refuses on any error or missing permission. */
export interface ImportFacts {
  archivedFeatures: string[];
  /** `name (in project p)` for flags of the document that live in another project. */
  otherProjectFeatures: string[];
  existingFeatures: string[];
  duplicateFeatures: string[];
  unsupportedStrategies: string[];
  usedCustomStrategies: string[];
  unsupportedSegments: string[];
  missingDependencies: string[];
  /** Vexil segment id by the document's segment id, matched by name. */
  segmentIds: Map<number, number>;
  newTagTypes: string[];
  missingPermissions: Permission[];
}

const unique = (items: string[]) => [...new Set(items)];

function duplicates(names: string[]): string[] {
  return unique(names.filter((n, i) => names.indexOf(n) !== i));
}

/** Unleash's checks of an import (its validate), on Vexil's data; archived flags are dropped before the rest. */
export async function importFacts(db: Kysely<Database>, by: Principal | null, input: FeaturesBatchImport): Promise<ImportFacts> {
  const { data, project, environment } = input;
  const names = data.features.map((f) => f.name);
  const rows = names.length
    ? await db.selectFrom("features").select(["name", "project_id", "archived_at"]).where("name", "in", names).execute()
    : [];
  const archived = new Set(rows.filter((r) => r.archived_at !== null).map((r) => r.name));
  const live = rows.filter((r) => r.archived_at === null);
  const strategies = data.featureStrategies.filter((s) => s.featureName !== undefined && !archived.has(s.featureName));

  const custom = await db.selectFrom("strategy_types").select("name").execute();
  const customNames = new Set(custom.map((c) => c.name));
  const segments = await db.selectFrom("segments").select(["id", "name", "project_id"]).orderBy("id").execute();
  const segmentIds = new Map<number, number>();
  const unsupportedSegments: string[] = [];
  for (const segment of data.segments ?? []) {
    const found = segments.find((s) => s.name === segment.name && (s.project_id === null || s.project_id === project));
    if (found) segmentIds.set(segment.id, found.id);
    else unsupportedSegments.push(segment.name);
  }
  const parents = (data.dependencies ?? []).flatMap((d) => d.dependencies.map((p) => p.feature));
  const outside = unique(parents.filter((p) => !names.includes(p)));
  const known = outside.length ? await db.selectFrom("features").select("name").where("name", "in", outside).execute() : [];
  const tagTypes = await db.selectFrom("tag_types").select("name").execute();
  const usedTagTypes = new Set((data.featureTags ?? []).filter((t) => !archived.has(t.featureName)).map((t) => t.tagType));
  const newTagTypes = unique(
    (data.tagTypes ?? []).map((t) => t.name).filter((t) => usedTagTypes.has(t) && !tagTypes.some((known) => known.name === t)),
  );
  // In the document's order, not the table's (which moves as rows are updated).
  const inProject = new Set(live.filter((r) => r.project_id === project).map((r) => r.name));
  const existingFeatures = unique(names.filter((n) => inProject.has(n)));
  const strategiesStored = existingFeatures.length
    ? await db
        .selectFrom("feature_strategies")
        .select("id")
        .where("feature_name", "in", existingFeatures)
        .where("environment_name", "=", environment)
        .executeTakeFirst()
    : undefined;
  const withVariants = (data.featureEnvironments ?? []).some((fe) => (fe.variants?.length ?? 0) > 0);

  const needed: Permission[] = ["UPDATE_FEATURE"];
  if (newTagTypes.length) needed.push("CREATE_TAG_TYPE");
  if (strategiesStored) needed.push("DELETE_FEATURE_STRATEGY");
  if (strategies.length) needed.push("CREATE_FEATURE_STRATEGY");
  if (withVariants) needed.push("UPDATE_FEATURE_ENVIRONMENT_VARIANTS");
  if (rows.length < new Set(names).size) needed.push("CREATE_FEATURE");
  // Vexil's four-eyes rule (docs/migrate-from-unleash.md#four-eyes): an import is a direct write.
  if (await enabledChangeRequestSettings(db, project, environment)) needed.push("SKIP_CHANGE_REQUEST");

  return {
    archivedFeatures: [...archived].sort(),
    otherProjectFeatures: live.filter((r) => r.project_id !== project).map((r) => `${r.name} (in project ${r.project_id})`),
    existingFeatures,
    duplicateFeatures: duplicates(names),
    unsupportedStrategies: strategies.map((s) => s.name).filter((n) => !BUILT_IN_STRATEGY_NAMES.has(n) && !customNames.has(n)),
    usedCustomStrategies: unique(strategies.map((s) => s.name)).filter((n) => customNames.has(n)),
    unsupportedSegments,
    missingDependencies: outside.filter((p) => !known.some((k) => k.name === p)),
    segmentIds,
    newTagTypes,
    missingPermissions: by ? needed.filter((p) => !principalHasPermission(by, p, project)) : [],
  };
}

const finding = (message: string, affectedItems: string[]) => (affectedItems.length ? [{ message, affectedItems }] : []);

/** Unleash's validate answer: its messages, in its order. */
export function importValidation(facts: ImportFacts, project: string): ImportValidation {
  return {
    errors: [
      ...finding("We detected the following custom strategy that needs to be created first:", facts.unsupportedStrategies),
      ...finding(
        `You cannot import a features that already exist in other projects. You already have the following features defined outside of project ${project}:`,
        facts.otherProjectFeatures,
      ),
      ...finding("We detected the following features are duplicate in your import data:", facts.duplicateFeatures),
      ...finding("We detected the following segments that need to be created first:", facts.unsupportedSegments),
      ...finding("We detected the following dependencies that need to be created first:", facts.missingDependencies),
    ],
    warnings: [
      ...finding(
        "The following strategy types will be used in import. Please make sure the strategy type parameters are configured as in source environment:",
        facts.usedCustomStrategies,
      ),
      ...finding(
        "The following features will not be imported as they are currently archived. To import them, please unarchive them first:",
        facts.archivedFeatures,
      ),
      ...finding("The following features already exist in this project and will be overwritten:", facts.existingFeatures),
    ],
    permissions: finding(
      "We detected you are missing the following permissions:",
      facts.missingPermissions.map((p) => DISPLAY_NAMES[p] ?? p),
    ),
  };
}
