import { z } from "zod";
import type { Variant } from "../features/variant.ts";
import type { Constraint } from "../strategies/constraint.ts";
import type { StrategyVariant } from "../strategies/feature-strategy.ts";

/**
 * Unleash's export document (its exportResultSchema): what POST /features-batch/export answers and
 * POST /features-batch/import and /validate take as `data`. Items are read loosely (Unleash's
 * exports carry fields Vexil has no use for, such as a feature's `createdAt` or a strategy's `id`);
 * what Vexil keeps is listed here (docs/migrate-from-unleash.md#the-features-batch-document).
 */
const exportedFeatureSchema = z.object({
  name: z.string().min(1).max(100),
  description: z.string().nullish(),
  type: z.string().min(1).max(100).optional(),
  project: z.string().optional(),
  stale: z.boolean().optional(),
  impressionData: z.boolean().optional(),
});

const exportedStrategySchema = z.object({
  name: z.string().min(1).max(100),
  featureName: z.string().optional(),
  title: z.string().nullish(),
  disabled: z.boolean().nullish(),
  sortOrder: z.number().optional(),
  constraints: z.array(z.unknown()).optional(),
  parameters: z.record(z.string(), z.string()).optional(),
  variants: z.array(z.unknown()).optional(),
  segments: z.array(z.number()).optional(),
});

const exportedFeatureEnvironmentSchema = z.object({
  name: z.string().optional(),
  featureName: z.string().optional(),
  environment: z.string().optional(),
  enabled: z.boolean(),
  variants: z.array(z.unknown()).optional(),
});

const exportedFeatureTagSchema = z.object({
  featureName: z.string(),
  tagType: z.string().optional(),
  tagValue: z.string(),
});

const exportedTagTypeSchema = z.object({
  name: z.string(),
  description: z.string().nullish(),
  icon: z.string().nullish(),
  color: z.string().nullish(),
});

const exportedDependencySchema = z.object({
  feature: z.string(),
  dependencies: z.array(z.object({ feature: z.string(), enabled: z.boolean().optional(), variants: z.array(z.string()).optional() })),
});

const featuresBatchDocumentSchema = z.strictObject({
  features: z.array(exportedFeatureSchema).max(10_000),
  featureStrategies: z.array(exportedStrategySchema),
  featureEnvironments: z.array(exportedFeatureEnvironmentSchema).optional(),
  /** Vexil keeps no context-field registry: read and left (docs/migrate-from-unleash.md#what-is-not-copied). */
  contextFields: z.array(z.object({ name: z.string() })).optional(),
  featureTags: z.array(exportedFeatureTagSchema).optional(),
  segments: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
  tagTypes: z.array(exportedTagTypeSchema),
  dependencies: z.array(exportedDependencySchema).optional(),
  /** Feature links: Vexil has none; read and left. */
  links: z.array(z.unknown()).optional(),
});

/** Unleash's importTogglesSchema: the body of /import and /validate. */
export const featuresBatchImportSchema = z.strictObject({
  project: z.string().min(1).max(100),
  environment: z.string().min(1).max(100),
  data: featuresBatchDocumentSchema,
});
export type FeaturesBatchImport = z.output<typeof featuresBatchImportSchema>;

/** Unleash's exportQuerySchema: one of features, tag or project selects the flags. */
export const featuresBatchExportQuerySchema = z
  .object({
    environment: z.string().min(1).max(100),
    downloadFile: z.boolean().optional(),
    features: z.array(z.string().min(1).max(100)).max(10_000).optional(),
    tag: z.string().min(1).max(101).optional(),
    project: z.string().min(1).max(100).optional(),
  })
  .refine((q) => q.features !== undefined || q.tag !== undefined || q.project !== undefined, {
    message: "give features, tag or project",
    path: ["features"],
  });

/** One line of /validate's answer. */
interface ImportFinding {
  message: string;
  affectedItems: string[];
}

export interface ImportValidation {
  errors: ImportFinding[];
  warnings: ImportFinding[];
  permissions: ImportFinding[];
}

/** What an export answers, as Unleash's exportResultSchema names it. */
export interface FeaturesBatchExport {
  features: {
    name: string;
    description: string | null;
    type: string;
    project: string;
    stale: boolean;
    impressionData: boolean;
    archived: boolean;
  }[];
  featureStrategies: {
    name: string;
    id: string;
    featureName: string;
    title: string | null;
    disabled: boolean;
    sortOrder: number;
    constraints: Constraint[];
    parameters: Record<string, string>;
    variants: StrategyVariant[];
    segments: number[];
  }[];
  featureEnvironments: { name: string; featureName: string; environment: string; enabled: boolean; variants: Variant[] }[];
  contextFields: { name: string }[];
  featureTags: { featureName: string; tagType: string; tagValue: string }[];
  segments: { id: number; name: string }[];
  tagTypes: { name: string; description: string | null; icon: string | null; color: string | null }[];
  dependencies: { feature: string; dependencies: { feature: string; enabled: boolean; variants: string[] }[] }[];
}
