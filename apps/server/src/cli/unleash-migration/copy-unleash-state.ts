import type { Database } from "@vexil/db";
import {
  constraintInputSchema,
  constraintsFromJson,
  createEnvironment,
  createProject,
  createSegment,
  createStrategyType,
  createTagType,
  DomainError,
  enableEnvironmentInProject,
  importFeatures,
  inSavepoint,
  listEnvironments,
  listProjects,
  listSegments,
  listStrategyTypes,
  listTagTypes,
  NameExistsError,
  updateSegment,
  updateTagType,
} from "@vexil/services";
import type { Transaction } from "kysely";
import type { UnleashState } from "./read-unleash.ts";

/** What a migration did (or, in a dry run, would do), and what it found in Vexil that it left as it was. */
export interface MigrationReport {
  changes: string[];
  leftAsIs: string[];
  /** Flags of one project and environment that a rule of Vexil refused, with why: left out, the rest copied. */
  refused: string[];
}

/** JSON with object keys sorted, so that equal values compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** A segment's constraints as Vexil stores them (defaults filled in), so that Unleash's and Vexil's compare equal. */
function storedConstraints(constraints: unknown[]): unknown[] {
  return constraintsFromJson(constraintInputSchema.array().parse(constraints));
}

/**
 * Copies what Unleash holds into Vexil through the services, in the caller's transaction, writing
 * only what is missing or differs (docs/migrate-from-unleash.md#vexil-migrate-from-unleash), so
 * that a second run changes nothing. Changes are recorded as the system's.
 */
export async function copyUnleashState(trx: Transaction<Database>, state: UnleashState): Promise<MigrationReport> {
  const changes: string[] = [];
  const leftAsIs: string[] = [];

  const environments = await listEnvironments(trx);
  for (const environment of state.environments) {
    const found = environments.find((e) => e.name === environment.name);
    if (!found) {
      await createEnvironment(trx, null, environment);
      changes.push(`create environment ${environment.name} (type ${environment.type})`);
    } else if (found.type !== environment.type) {
      leftAsIs.push(`environment ${environment.name}: type ${found.type} here, ${environment.type} in Unleash (Vexil cannot change it)`);
    }
  }

  const projects = await listProjects(trx);
  for (const project of state.projects) {
    const found = projects.find((p) => p.id === project.id);
    if (!found) {
      await createProject(trx, null, project);
      changes.push(`create project ${project.id} ("${project.name}")`);
    } else if (found.name !== project.name || (found.description ?? null) !== project.description) {
      leftAsIs.push(`project ${project.id}: its name or description differs from Unleash's (Vexil cannot change them)`);
    }
    for (const environment of state.projectEnvironments.get(project.id) ?? []) {
      try {
        await enableEnvironmentInProject(trx, null, { projectId: project.id, environment });
        changes.push(`enable environment ${environment} in project ${project.id}`);
      } catch (error) {
        // Enabled already: the answer of a second run. The service refuses before any failed statement, so the transaction goes on.
        if (!(error instanceof NameExistsError)) throw error;
      }
    }
  }

  const tagTypes = await listTagTypes(trx);
  for (const tagType of state.tagTypes) {
    const found = tagTypes.find((t) => t.name === tagType.name);
    if (!found) {
      await createTagType(trx, null, tagType);
      changes.push(`create tag type ${tagType.name}`);
    } else if (canonical(found) !== canonical(tagType)) {
      const { name, ...fields } = tagType;
      await updateTagType(trx, null, name, fields);
      changes.push(`update tag type ${tagType.name}`);
    }
  }

  const strategyTypes = await listStrategyTypes(trx);
  for (const strategy of state.customStrategies) {
    const found = strategyTypes.find((s) => s.name === strategy.name);
    if (!found) {
      await createStrategyType(trx, null, strategy);
      changes.push(`create strategy type ${strategy.name}`);
    } else if (canonical(found.parameters) !== canonical(strategy.parameters) || found.description !== strategy.description) {
      leftAsIs.push(`strategy type ${strategy.name}: its description or parameters differ from Unleash's (Vexil cannot change them)`);
    }
  }

  const segments = await listSegments(trx);
  for (const segment of state.segments) {
    const found = segments.find((s) => s.name === segment.name);
    const body = { ...segment, constraints: storedConstraints(segment.constraints) };
    if (!found) {
      await createSegment(trx, null, body);
      changes.push(`create segment ${segment.name}`);
    } else if (
      canonical({ description: body.description, project: body.project, constraints: body.constraints }) !==
      canonical({ description: found.description, project: found.project, constraints: found.constraints })
    ) {
      await updateSegment(trx, null, found.id, body);
      changes.push(`update segment ${segment.name}`);
    }
  }

  const refused: string[] = [];
  for (const document of state.documents) {
    const where = `${document.project}/${document.environment}`;
    const data = withoutLinks(document.data);
    try {
      const flagChanges = await inSavepoint(trx, (step) => importFeatures(step, null, { ...document, data }));
      for (const change of flagChanges) changes.push(`${where}: ${change}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // A rule refused the document: flag by flag, parents first, so that only what is refused is left out.
      for (const flag of parentsFirst(data)) {
        try {
          const flagChanges = await inSavepoint(trx, (step) => importFeatures(step, null, { ...document, data: onlyFlag(data, flag) }));
          for (const change of flagChanges) changes.push(`${where}: ${change}`);
        } catch (flagError) {
          if (!(flagError instanceof DomainError)) throw flagError;
          refused.push(`${where} ${flag}: ${flagError.message}`);
        }
      }
    }
  }
  return { changes, leftAsIs, refused };
}

type Document = ReturnType<typeof withoutLinks>;
interface Named {
  name?: string;
  featureName?: string;
  feature?: string;
}

/** The flags of a document, those without parents first. */
function parentsFirst(data: Document): string[] {
  const names = (data.features as Named[]).map((f) => f.name as string);
  const children = new Set(((data.dependencies ?? []) as Named[]).map((d) => d.feature as string));
  return [...names.filter((n) => !children.has(n)), ...names.filter((n) => children.has(n))];
}

/** The part of a document about one flag, with every tag type and segment it may name. */
function onlyFlag(data: Document, flag: string): Document {
  const about = (items: unknown[] | undefined, key: keyof Named) => (items as Named[] | undefined)?.filter((i) => i[key] === flag);
  return {
    ...data,
    features: about(data.features, "name") ?? [],
    featureStrategies: about(data.featureStrategies, "featureName") ?? [],
    featureEnvironments: about(data.featureEnvironments, "featureName") ?? [],
    featureTags: about(data.featureTags, "featureName") ?? [],
    dependencies: about(data.dependencies, "feature") ?? [],
  };
}

/** Feature links have no place in Vexil: the import would ignore them; they are counted as not copied. */
function withoutLinks(data: UnleashState["documents"][number]["data"]) {
  const { links: _, ...rest } = data;
  return rest;
}
