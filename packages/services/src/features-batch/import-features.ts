import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import { type Principal, projectRolesDeciding } from "../auth/principal.ts";
import { assertDirectFeatureWriteAllowed, assertDirectWriteAllowed } from "../change-requests/assert-direct-write-allowed.ts";
import { dependenciesOf, storeFeatureDependency } from "../dependencies/write-feature-dependency.ts";
import { NoAccessError, NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { requireProject } from "../projects/require-project.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { changeFeatureMetadata } from "../features/change-feature-metadata.ts";
import { createFeature } from "../features/create-feature.ts";
import { lockFeatureOfProject } from "../features/lock-feature-of-project.ts";
import { parseVariants } from "../features/parse-variants.ts";
import { storeFeatureEnvironmentVariants } from "../features/replace-feature-environment-variants.ts";
import { storeFeatureEnvironmentEnabled } from "../features/set-feature-environment-enabled.ts";
import { variantsFromJson } from "../features/variant.ts";
import { constraintsFromJson } from "../strategies/constraint.ts";
import { type FeatureStrategy, strategyVariantsFromJson } from "../strategies/feature-strategy.ts";
import { strategiesKey, strategiesOf } from "../strategies/list-feature-strategies.ts";
import { parseStrategy } from "../strategies/parse-strategy.ts";
import { insertFeatureStrategy, removeFeatureStrategy } from "../strategies/write-feature-strategy.ts";
import { createTagType } from "../tags/write-tag-type.ts";
import { changeFeatureTags } from "../tags/write-feature-tags.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { type FeaturesBatchImport, featuresBatchImportSchema, type ImportValidation } from "./features-batch-document.ts";
import { type ImportFacts, importFacts, importValidation } from "./import-findings.ts";

/** What an import changed, one line each (`created feature x`); empty when the document matched what was stored. */
export type ImportChanges = string[];

/** JSON with object keys sorted, so that two equal values compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** A strategy's content as it is served, without its id: what decides whether an import changes it. */
function strategyContent(s: Omit<FeatureStrategy, "id">): string {
  return canonical({
    name: s.name,
    title: s.title ?? null,
    disabled: s.disabled,
    sortOrder: s.sortOrder,
    constraints: constraintsFromJson(JSON.parse(JSON.stringify(s.constraints))),
    parameters: s.parameters,
    variants: strategyVariantsFromJson(JSON.parse(JSON.stringify(s.variants))),
    segments: [...s.segments].sort((a, b) => a - b),
  });
}

const sameList = (a: string[], b: string[]) => canonical([...a].sort()) === canonical([...b].sort());

/** The body, read, and its project and environment, which must exist with the environment enabled in the project. */
async function checked(db: Kysely<Database>, input: unknown): Promise<FeaturesBatchImport> {
  const parsed = parseInput(featuresBatchImportSchema, input, "", "The import");
  await requireProject(db, parsed.project);
  const enabled = await db
    .selectFrom("project_environments")
    .select("environment_name")
    .where("project_id", "=", parsed.project)
    .where("environment_name", "=", parsed.environment)
    .executeTakeFirst();
  if (!enabled) throw new NotFoundError(`The environment "${parsed.environment}" is not enabled in the project "${parsed.project}".`);
  return parsed;
}

/**
 * POST /api/admin/features-batch/validate: what an import of the document would meet, in
 * Unleash's words, without writing anything.
 */
export async function validateImport(db: Kysely<Database>, by: Principal | null, input: unknown): Promise<ImportValidation> {
  const parsed = await checked(db, input);
  return importValidation(await importFacts(db, by, parsed), parsed.project);
}

/** Unleash's refusals of an import, in its order and words (its verify step). */
function refuseWhatCannotBeImported(by: Principal | null, facts: ImportFacts, project: string, environment: string): void {
  if (facts.unsupportedStrategies.length) {
    throw new ValidationError(
      "Some of the strategies you are trying to import are not supported.",
      facts.unsupportedStrategies.map((name) => ({ path: "data.featureStrategies", message: `${name} is not supported.` })),
    );
  }
  const missing = facts.missingPermissions.find((p) => p !== "SKIP_CHANGE_REQUEST");
  // Checked in the project imported into; named where the caller's project roles decided (docs/project-roles.md#the-403).
  if (missing) {
    throw NoAccessError.forPermission(
      missing,
      environment,
      undefined,
      by && projectRolesDeciding(by, missing, project) ? project : undefined,
    );
  }
  if (facts.otherProjectFeatures.length) {
    throw new ValidationError(`These features exist already in other projects: ${facts.otherProjectFeatures.join(", ")}`);
  }
  if (facts.unsupportedSegments.length) throw new ValidationError(`Unsupported segments: ${facts.unsupportedSegments.join(", ")}`);
  if (facts.missingDependencies.length) {
    throw new ValidationError(`The following dependent features are missing: ${facts.missingDependencies.join(", ")}`);
  }
}

/**
 * POST /api/admin/features-batch/import: the document's flags into one project and environment,
 * in one transaction, as Unleash imports them (docs/migrate-from-unleash.md#the-features-batch-document):
 * flags created or updated, their tags replaced, new tag types made, and in the environment their
 * strategies replaced, their variants and on/off state set, their dependencies added. Only what
 * differs is written, each write with its event, and a `features-imported` event closes an import
 * that changed anything: importing the same document again changes nothing and appends nothing.
 * An environment with change requests on takes an import only from a caller who may skip them
 * (docs/migrate-from-unleash.md#four-eyes). Returns what changed.
 */
export async function importFeatures(db: Kysely<Database>, by: Principal | null, input: unknown): Promise<ImportChanges> {
  if (by?.kind === "admin-token") {
    // Unleash's rule: an import is recorded against a person or a service account, not a shared admin token.
    throw new ValidationError(
      "You can't use an admin token to import features. Please use either a personal access token (https://docs.getunleash.io/concepts/api-tokens-and-client-keys#personal-access-tokens) or a service account (https://docs.getunleash.io/concepts/service-accounts).",
    );
  }
  return inTransaction(db, async (trx) => {
    const parsed = await checked(trx, input);
    await assertDirectWriteAllowed(trx, by, { projectId: parsed.project, environment: parsed.environment });
    const facts = await importFacts(trx, by, parsed);
    refuseWhatCannotBeImported(by, facts, parsed.project, parsed.environment);
    const changes = await applyImport(trx, by, withoutArchived(parsed, facts), facts);
    if (changes.length) {
      await appendEvent(trx, by, {
        type: "features-imported",
        project: parsed.project,
        environment: parsed.environment,
        data: { changes: changes.length },
      });
    }
    return changes;
  });
}

/** Unleash leaves flags that are archived here out of an import, with their strategies, states and tags. */
function withoutArchived(input: FeaturesBatchImport, facts: ImportFacts): FeaturesBatchImport {
  const archived = new Set(facts.archivedFeatures);
  const live = (name: string | undefined) => name !== undefined && !archived.has(name);
  const { data } = input;
  return {
    ...input,
    data: {
      ...data,
      features: data.features.filter((f) => live(f.name)),
      featureStrategies: data.featureStrategies.filter((s) => live(s.featureName)),
      featureEnvironments: data.featureEnvironments?.filter((fe) => live(fe.featureName ?? fe.name)),
      featureTags: data.featureTags?.filter((t) => live(t.featureName)),
    },
  };
}

/** The steps of an import, on a transaction whose checks have passed; each writes only what differs. */
async function applyImport(trx: Transaction<Database>, by: Principal | null, input: FeaturesBatchImport, facts: ImportFacts) {
  const { project: projectId, environment, data } = input;
  const changes: ImportChanges = [];
  const names = [...new Set(data.features.map((f) => f.name))];

  for (const feature of data.features) {
    const metadata = {
      description: feature.description ?? null,
      ...(feature.type === undefined ? {} : { type: feature.type }),
      ...(feature.impressionData === undefined ? {} : { impressionData: feature.impressionData }),
      ...(feature.stale === undefined ? {} : { stale: feature.stale }),
    };
    if (facts.existingFeatures.includes(feature.name)) {
      const row = await lockFeatureOfProject(trx, { projectId, featureName: feature.name });
      const after = await changeFeatureMetadata(trx, by, row, metadata);
      const changed =
        after.description !== row.description ||
        after.type !== row.type ||
        after.impressionData !== row.impression_data ||
        after.stale !== row.stale;
      if (changed) changes.push(`updated feature ${feature.name}`);
    } else {
      const { stale, ...created } = metadata;
      await createFeature(trx, by, projectId, { name: feature.name, ...created });
      if (stale) await changeFeatureMetadata(trx, by, await lockFeatureOfProject(trx, { projectId, featureName: feature.name }), { stale });
      facts.existingFeatures.push(feature.name);
      changes.push(`created feature ${feature.name}`);
    }
  }

  const state = new Map((data.featureEnvironments ?? []).map((fe) => [fe.featureName ?? fe.name ?? "", fe]));
  for (const [featureName, featureEnvironment] of state) {
    if (!names.includes(featureName) || !featureEnvironment.variants?.length) continue;
    const path = { projectId, featureName, environment };
    const wanted = parseVariants(featureEnvironment.variants, { path: "data.featureEnvironments.variants" });
    const stored = await trx
      .selectFrom("feature_environments")
      .select("variants")
      .where("feature_name", "=", featureName)
      .where("environment_name", "=", environment)
      .executeTakeFirst();
    if (canonical(wanted) === canonical(variantsFromJson(stored?.variants))) continue;
    await storeFeatureEnvironmentVariants(trx, by, path, featureEnvironment.variants);
    changes.push(`set the variants of ${featureName} in ${environment}`);
  }

  for (const tagType of data.tagTypes) {
    if (!facts.newTagTypes.includes(tagType.name)) continue;
    await createTagType(trx, by, { name: tagType.name, description: tagType.description, icon: tagType.icon, color: tagType.color });
    facts.newTagTypes.splice(facts.newTagTypes.indexOf(tagType.name), 1);
    changes.push(`created tag type ${tagType.name}`);
  }

  const featureTags = data.featureTags ?? [];
  for (const featureName of names) {
    const wanted = featureTags
      .filter((t) => t.featureName === featureName && t.tagType)
      .map((t) => ({ type: t.tagType as string, value: t.tagValue.trim() }));
    const stored = await trx
      .selectFrom("feature_tags")
      .select(["tag_type as type", "tag_value as value"])
      .where("feature_name", "=", featureName)
      .execute();
    const key = (t: { type: string; value: string }) => `${t.type}:${t.value}`;
    const added = wanted.filter((w) => !stored.some((s) => key(s) === key(w)));
    const removed = stored.filter((s) => !wanted.some((w) => key(s) === key(w)));
    if (!added.length && !removed.length) continue;
    const tagged = { name: featureName, project: projectId, archived: false };
    await changeFeatureTags(trx, by, [tagged], added, removed, () => "data.featureTags");
    changes.push(`set the tags of ${featureName}`);
  }

  const stored = await strategiesOf(trx, names, environment);
  for (const featureName of names) {
    const path = { projectId, featureName, environment };
    const before = stored.get(strategiesKey(featureName, environment)) ?? [];
    const bodies = data.featureStrategies
      .filter((s) => s.featureName === featureName)
      .map((s) => ({
        name: s.name,
        title: s.title ?? null,
        disabled: s.disabled ?? false,
        ...(s.sortOrder === undefined ? {} : { sortOrder: s.sortOrder }),
        constraints: s.constraints ?? [],
        parameters: s.parameters ?? {},
        variants: s.variants ?? [],
        segments: (s.segments ?? []).map((id) => facts.segmentIds.get(id) ?? id),
      }));
    const wanted: string[] = [];
    for (const [index, body] of bodies.entries()) {
      const parsed = await parseStrategy(trx, body, projectId);
      wanted.push(strategyContent({ ...parsed, title: parsed.title ?? null, sortOrder: parsed.sortOrder ?? index }));
    }
    const current = before.map((s) => strategyContent(s));
    if (sameList(wanted, current)) continue;
    for (const strategy of before) await removeFeatureStrategy(trx, by, path, strategy.id);
    for (const [index, body] of bodies.entries())
      await insertFeatureStrategy(trx, by, path, { ...body, sortOrder: body.sortOrder ?? index });
    changes.push(`replaced the strategies of ${featureName} in ${environment}`);
  }

  for (const [featureName, featureEnvironment] of state) {
    if (!names.includes(featureName)) continue;
    const row = await trx
      .selectFrom("feature_environments")
      .select("enabled")
      .where("feature_name", "=", featureName)
      .where("environment_name", "=", environment)
      .executeTakeFirst();
    if ((row?.enabled ?? false) === featureEnvironment.enabled) continue;
    await storeFeatureEnvironmentEnabled(trx, by, { projectId, featureName, environment }, featureEnvironment.enabled);
    changes.push(`turned ${featureName} ${featureEnvironment.enabled ? "on" : "off"} in ${environment}`);
  }

  const current = await dependenciesOf(trx, names);
  let dependenciesChecked = false;
  for (const { feature: child, dependencies } of data.dependencies ?? []) {
    if (!names.includes(child)) continue;
    for (const parent of dependencies) {
      const wanted = { feature: parent.feature, enabled: parent.enabled ?? true, variants: parent.variants ?? [] };
      const have = (current.get(child) ?? []).find((d) => d.feature === parent.feature);
      if (have && canonical(have) === canonical(wanted)) continue;
      if (!dependenciesChecked) {
        // Dependencies belong to the flag, not one environment: gated wherever the project is.
        await assertDirectFeatureWriteAllowed(trx, by, projectId);
        dependenciesChecked = true;
      }
      await storeFeatureDependency(trx, by, { projectId, featureName: child }, wanted);
      changes.push(`made ${child} depend on ${parent.feature}`);
    }
  }
  return changes;
}
