import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { parseVariants } from "../features/parse-variants.ts";
import { type StrategyVariant, strategyInputSchema } from "./feature-strategy.ts";
import { BUILT_IN_STRATEGY_NAMES } from "./strategy-type.ts";

const PERCENTAGE = /^(100|[1-9]?\d)$/;

export type ParsedStrategy = ReturnType<typeof strategyInputSchema.parse> & { variants: StrategyVariant[] };

/**
 * Checks a strategy body against every rule that needs no database but the strategy types and
 * segments: the name is built in or defined, percentages are 0-100, constraints fit their
 * operators, variants are normalised as feature variants are, segments exist and may be used in
 * the project. Returns it as it is stored.
 */
export async function parseStrategy(db: Kysely<Database>, input: unknown, projectId: string): Promise<ParsedStrategy> {
  const parsed = parseInput(strategyInputSchema, input, "", "The strategy");
  if (!BUILT_IN_STRATEGY_NAMES.has(parsed.name)) {
    const custom = await db.selectFrom("strategy_types").select("name").where("name", "=", parsed.name).executeTakeFirst();
    if (!custom) {
      const message = `"${parsed.name}" is neither a built-in strategy nor one defined with POST /api/admin/strategies`;
      throw new ValidationError(`${message}.`, [{ path: "name", message }]);
    }
  }
  for (const key of ["rollout", "percentage"]) {
    const value = parsed.parameters[key];
    if (value !== undefined && !PERCENTAGE.test(value)) {
      throw new ValidationError(`"parameters.${key}" must be a whole number from 0 to 100.`, [
        { path: `parameters.${key}`, message: "must be 0-100" },
      ]);
    }
  }
  const variants = parseVariants(parsed.variants, { what: "The strategy variants" }).map(({ overrides: _, ...variant }) => variant);
  const segments = [...new Set(parsed.segments)];
  if (segments.length > 0) {
    const found = await db.selectFrom("segments").select(["id", "project_id"]).where("id", "in", segments).execute();
    for (const id of segments) {
      const segment = found.find((s) => s.id === id);
      if (!segment) throw new ValidationError(`There is no segment ${id}.`, [{ path: "segments", message: `no segment ${id}` }]);
      if (segment.project_id !== null && segment.project_id !== projectId) {
        const message = `segment ${id} belongs to the project "${segment.project_id}"`;
        throw new ValidationError(`The strategy cannot use ${message}.`, [{ path: "segments", message }]);
      }
    }
  }
  return { ...parsed, variants, segments };
}
