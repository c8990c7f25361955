import { type UnleashAdminClient, UnleashUnreachable } from "./unleash-admin-client.ts";

interface UnleashConstraint {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  inverted?: boolean;
  caseInsensitive?: boolean;
}

/** Unleash's features-batch export document, read as far as the migration looks into it. */
interface UnleashExport {
  features: unknown[];
  featureStrategies: unknown[];
  featureEnvironments?: unknown[];
  featureTags?: unknown[];
  dependencies?: unknown[];
  links?: { links: unknown[] }[];
  [other: string]: unknown;
}

/** What `vexil migrate-from-unleash` reads from a running Unleash, through its admin API. */
export interface UnleashState {
  version: string;
  projects: { id: string; name: string; description: string | null }[];
  /** Enabled environments; disabled ones are only counted (Unleash serves nothing from them). */
  environments: { name: string; type: string; sortOrder: number }[];
  disabledEnvironments: string[];
  /** The environments enabled in each project, by project id. */
  projectEnvironments: Map<string, string[]>;
  segments: { name: string; description: string | null; project: string | null; constraints: UnleashConstraint[] }[];
  customStrategies: { name: string; description: string | null; parameters: unknown[] }[];
  tagTypes: { name: string; description: string | null; icon: string | null; color: string | null }[];
  /** Unleash's features-batch export of each project in each of its environments. */
  documents: { project: string; environment: string; data: UnleashExport }[];
  /** Counted, to say what is not copied. */
  notCopied: { users: number; apiTokens: number; archivedFlags: number; customContextFields: string[]; addons: number };
}

/** Unleash's own context fields, which every Unleash has; others are custom. */
const BUILT_IN_CONTEXT_FIELDS = new Set(["appName", "currentTime", "environment", "sessionId", "userId", "remoteAddress"]);

/** Reads everything the migration copies, and counts what it does not; `progress` says what is being read. */
export async function readUnleash(unleash: UnleashAdminClient, progress: (line: string) => void): Promise<UnleashState> {
  const ui = await unleash.get<{ version?: string; versionInfo?: { current?: { oss?: string } } }>("/api/admin/ui-config");
  const version = ui.versionInfo?.current?.oss ?? ui.version ?? "unknown";
  const { projects } = await unleash.get<{ projects: UnleashState["projects"] }>("/api/admin/projects");
  const { environments } = await unleash.get<{ environments: (UnleashState["environments"][number] & { enabled: boolean })[] }>(
    "/api/admin/environments",
  );
  const enabled = environments.filter((e) => e.enabled);
  const projectEnvironments = new Map<string, string[]>();
  for (const project of projects) {
    const { environments: own } = await unleash.get<{ environments: { name: string; enabled: boolean }[] }>(
      `/api/admin/environments/project/${encodeURIComponent(project.id)}`,
    );
    projectEnvironments.set(
      project.id,
      own.filter((e) => e.enabled && enabled.some((g) => g.name === e.name)).map((e) => e.name),
    );
  }
  const { segments } = await unleash.get<{ segments: UnleashState["segments"] }>("/api/admin/segments");
  const { strategies } = await unleash.get<{ strategies: (UnleashState["customStrategies"][number] & { editable: boolean })[] }>(
    "/api/admin/strategies",
  );
  const { tagTypes } = await unleash.get<{ tagTypes: UnleashState["tagTypes"] }>("/api/admin/tag-types");

  const documents: UnleashState["documents"] = [];
  for (const project of projects) {
    for (const environment of projectEnvironments.get(project.id) ?? []) {
      progress(`Reading the flags of ${project.id} in ${environment}...`);
      const data = await unleash.post<UnleashState["documents"][number]["data"]>("/api/admin/features-batch/export", {
        project: project.id,
        environment,
      });
      if (data.features.length === 0) continue;
      await orderStrategies(unleash, project.id, environment, data);
      documents.push({ project: project.id, environment, data });
    }
  }

  const context = await unleash.get<{ name: string }[]>("/api/admin/context");
  const { users } = await unleash.get<{ users: unknown[] }>("/api/admin/user-admin");
  const { tokens } = await unleash.get<{ tokens: unknown[] }>("/api/admin/api-tokens");
  const archived = await unleash.get<{ total: number }>("/api/admin/search/features?archived=IS:true&limit=1");
  const { addons } = await unleash.get<{ addons: unknown[] }>("/api/admin/addons");
  return {
    version,
    projects: projects.map(({ id, name, description }) => ({ id, name, description: description ?? null })),
    environments: enabled.map(({ name, type, sortOrder }) => ({ name, type, sortOrder })),
    disabledEnvironments: environments.filter((e) => !e.enabled).map((e) => e.name),
    projectEnvironments,
    segments: segments.map(({ name, description, project, constraints }) => ({
      name,
      description: description ?? null,
      project: project ?? null,
      constraints,
    })),
    customStrategies: strategies
      .filter((s) => s.editable)
      .map(({ name, description, parameters }) => ({ name, description: description ?? null, parameters })),
    tagTypes: tagTypes.map(({ name, description, icon, color }) => ({
      name,
      description: description ?? null,
      icon: icon ?? null,
      color: color ?? null,
    })),
    documents,
    notCopied: {
      users: users.length,
      apiTokens: tokens.length,
      archivedFlags: archived.total,
      customContextFields: context.map((c) => c.name).filter((n) => !BUILT_IN_CONTEXT_FIELDS.has(n)),
      addons: addons.length,
    },
  };
}

/**
 * Unleash's export lists a flag's strategies without their sortOrder and, among many flags, not in
 * the order the SDKs evaluate them; the import keeps the order it is given. So for each flag with
 * more than one strategy in the environment, the order is read from the flag itself, which the admin
 * API lists in evaluation order, and written into the document as each strategy's sortOrder
 * (docs/migrate-from-unleash.md#the-order-of-strategies).
 */
async function orderStrategies(unleash: UnleashAdminClient, project: string, environment: string, data: UnleashExport): Promise<void> {
  const strategies = data.featureStrategies as { id?: string; featureName: string; sortOrder?: number }[];
  const counts = new Map<string, number>();
  for (const s of strategies) counts.set(s.featureName, (counts.get(s.featureName) ?? 0) + 1);
  for (const [featureName, count] of counts) {
    if (count < 2) continue;
    const feature = await unleash.get<{ environments: { name: string; strategies: { id: string }[] }[] }>(
      `/api/admin/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(featureName)}`,
    );
    const ordered = feature.environments.find((e) => e.name === environment)?.strategies ?? [];
    const position = new Map(ordered.map((s, index) => [s.id, index]));
    for (const s of strategies) {
      if (s.featureName !== featureName) continue;
      const index = s.id === undefined ? undefined : position.get(s.id);
      if (index === undefined)
        throw new UnleashUnreachable(`Unleash's flag ${featureName} in ${environment} has no strategy ${s.id} that its export lists`);
      s.sortOrder = index;
    }
  }
}
