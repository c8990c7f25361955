import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { z } from "zod";
import { variantsFromJson } from "../features/variant.ts";
import { type Constraint, constraintsFromJson, constraintsInputSchema } from "./constraint.ts";

/** A strategy variant: a feature variant without overrides (docs/flag-model.md#strategy-variants). */
export interface StrategyVariant {
  name: string;
  weight: number;
  weightType: "variable" | "fix";
  stickiness: string;
  payload?: { type: string; value: string };
}

/** One activation strategy of a feature in one environment, as the admin API shows it. */
export interface FeatureStrategy {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  constraints: Constraint[];
  parameters: Record<string, string>;
  variants: StrategyVariant[];
  segments: number[];
}

/** A strategy as a client writes it; variants are checked and normalised by parseVariants. */
export const strategyInputSchema = z.strictObject({
  name: z.string().min(1).max(100),
  title: z.string().max(255).nullish(),
  disabled: z.boolean().default(false),
  sortOrder: z.int().min(-1_000_000).max(1_000_000).optional(),
  constraints: constraintsInputSchema.default([]),
  parameters: z.record(z.string().max(100), z.string().max(10_000)).default({}),
  variants: z.array(z.unknown()).default([]),
  segments: z.array(z.int().positive()).max(100).default([]),
});

/** The one place where stored JSON becomes strategy variants: feature variants without overrides. */
export function strategyVariantsFromJson(json: unknown): StrategyVariant[] {
  return variantsFromJson(json).map(({ overrides: _, ...variant }) => variant);
}

/** The one place where a strategy row (and its segment ids) becomes a strategy. */
export function featureStrategyFromRow(row: Selectable<Database["feature_strategies"]>, segments: number[]): FeatureStrategy {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    disabled: row.disabled,
    sortOrder: row.sort_order,
    constraints: constraintsFromJson(row.constraints),
    parameters: (row.parameters ?? {}) as Record<string, string>,
    variants: strategyVariantsFromJson(row.variants),
    segments,
  };
}
