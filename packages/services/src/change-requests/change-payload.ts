import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { dependencyInputSchema } from "../dependencies/feature-dependency.ts";
import { ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { parseVariants } from "../features/parse-variants.ts";
import { parseStrategy } from "../strategies/parse-strategy.ts";
import { strategyPatchSchema } from "../strategies/patch-feature-strategy.ts";
import { strategySortOrderSchema } from "../strategies/set-strategy-sort-order.ts";

export const CHANGE_ACTIONS = [
  "updateEnabled",
  "patchVariant",
  "addStrategy",
  "updateStrategy",
  "deleteStrategy",
  "addDependency",
  "deleteDependency",
  // Archives the flag in every environment, as Unleash's change of that name (docs/flag-lifecycle.md#archive-revive-delete).
  "archiveFeature",
  // Strategy order (Unleash's action, its payload the set-sort-order body) and a strategy's JSON patch (Vexil's).
  "reorderStrategy",
  "patchStrategy",
] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

const enabledSchema = z.strictObject({ enabled: z.boolean() });
const variantsSchema = z.strictObject({ variants: z.unknown().optional() });
const strategyIdSchema = z.strictObject({ id: z.string().min(1).max(100) });
const parentSchema = z.strictObject({ feature: z.string().min(1).max(100) });
const strategyPatchPayloadSchema = z.strictObject({ id: z.string().min(1).max(100), patch: strategyPatchSchema });

/**
 * Checks a change's payload as a direct write would check its body, so that a request holds
 * nothing a direct write would refuse; returns it as it is stored (as the client sent it).
 */
export async function validateChangePayload(
  db: Kysely<Database>,
  projectId: string,
  action: ChangeAction,
  payload: unknown,
): Promise<unknown> {
  const what = `The ${action} payload`;
  switch (action) {
    case "updateEnabled":
      return parseInput(enabledSchema, payload, "payload", what);
    case "patchVariant": {
      const { variants } = parseInput(variantsSchema, payload, "payload", what);
      parseVariants(variants);
      return { variants };
    }
    case "addStrategy":
      await parseStrategy(db, payload, projectId);
      return payload;
    case "updateStrategy": {
      const { id, ...strategy } = (payload ?? {}) as Record<string, unknown>;
      parseInput(strategyIdSchema, { id }, "payload", what);
      await parseStrategy(db, strategy, projectId);
      return payload;
    }
    case "deleteStrategy":
      return parseInput(strategyIdSchema, payload, "payload", what);
    case "addDependency":
      parseInput(dependencyInputSchema, payload, "payload", what);
      return payload;
    case "deleteDependency":
      return parseInput(parentSchema, payload, "payload", what);
    case "archiveFeature":
      return parseInput(z.strictObject({}), payload ?? {}, "payload", what);
    // Whether the ids are the feature's strategies, and what the patch makes of one, is checked when applied.
    case "reorderStrategy":
      return parseInput(strategySortOrderSchema, payload, "payload", what);
    case "patchStrategy":
      return parseInput(strategyPatchPayloadSchema, payload, "payload", what);
    default:
      throw new ValidationError(`Unknown action "${action as string}".`);
  }
}
