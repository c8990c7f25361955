import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { z } from "zod";
import { urlSafeName } from "../features/url-safe-name.ts";

const PARAMETER_TYPES = ["string", "percentage", "list", "number", "boolean"] as const;

interface StrategyParameter {
  name: string;
  type: (typeof PARAMETER_TYPES)[number];
  description: string;
  required: boolean;
}

/** A kind of activation strategy: built in (SDKs know them) or custom (SDKs implement them). */
export interface StrategyType {
  name: string;
  displayName: string | null;
  description: string | null;
  editable: boolean;
  deprecated: boolean;
  parameters: StrategyParameter[];
}

const strategyParameterSchema = z.strictObject({
  name: z.string().min(1).max(100),
  type: z.enum(PARAMETER_TYPES),
  description: z.string().max(1000).default(""),
  required: z.boolean().default(false),
});

export const newStrategyTypeSchema = z.strictObject({
  name: urlSafeName,
  description: z.string().max(1000).nullish(),
  parameters: z.array(strategyParameterSchema).max(100).default([]),
});

const parameter = (name: string, type: StrategyParameter["type"], description: string, required = false): StrategyParameter => ({
  name,
  type,
  description,
  required,
});

const builtIn = (
  name: string,
  displayName: string,
  description: string,
  parameters: StrategyParameter[],
  deprecated = false,
): StrategyType => ({
  name,
  displayName,
  description,
  editable: false,
  deprecated,
  parameters,
});

/** The strategies every SDK evaluates, the older gradual rollouts included. */
export const BUILT_IN_STRATEGIES: readonly StrategyType[] = [
  builtIn("default", "Standard", "On for everyone.", []),
  builtIn("flexibleRollout", "Gradual rollout", "On for a share of users, by stickiness.", [
    parameter("rollout", "percentage", "Share of users, 0-100", true),
    parameter("stickiness", "string", "Context field that keeps a user in or out", true),
    parameter("groupId", "string", "Users of the same group id get the same answer; the feature name by default", true),
  ]),
  builtIn("userWithId", "UserIDs", "On for the users listed.", [parameter("userIds", "list", "Comma-separated user ids")], true),
  builtIn("remoteAddress", "IPs", "On for the addresses listed.", [
    parameter("IPs", "list", "Comma-separated IP addresses or CIDR ranges", true),
  ]),
  builtIn("applicationHostname", "Hosts", "On for the host names listed.", [parameter("hostNames", "list", "Comma-separated host names")]),
  builtIn(
    "gradualRolloutUserId",
    "Gradual rollout by user id",
    "Older form of flexibleRollout.",
    [parameter("percentage", "percentage", "Share of users, 0-100"), parameter("groupId", "string", "Group id")],
    true,
  ),
  builtIn(
    "gradualRolloutSessionId",
    "Gradual rollout by session id",
    "Older form of flexibleRollout.",
    [parameter("percentage", "percentage", "Share of sessions, 0-100"), parameter("groupId", "string", "Group id")],
    true,
  ),
  builtIn(
    "gradualRolloutRandom",
    "Random gradual rollout",
    "Older form of flexibleRollout.",
    [parameter("percentage", "percentage", "Share of requests, 0-100")],
    true,
  ),
];

export const BUILT_IN_STRATEGY_NAMES: ReadonlySet<string> = new Set(BUILT_IN_STRATEGIES.map((s) => s.name));

/** The one place where a custom strategy type's row becomes a strategy type. */
export function strategyTypeFromRow(row: Selectable<Database["strategy_types"]>): StrategyType {
  return {
    name: row.name,
    displayName: null,
    description: row.description,
    editable: true,
    deprecated: false,
    parameters: Array.isArray(row.parameters) ? (row.parameters as StrategyParameter[]) : [],
  };
}
