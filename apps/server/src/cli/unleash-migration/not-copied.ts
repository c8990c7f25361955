import type { UnleashState } from "./read-unleash.ts";

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What the migration leaves in Unleash, each with why (docs/migrate-from-unleash.md#what-is-not-copied):
 * what this Unleash holds of it is counted, and what no migration copies is always listed.
 */
export function notCopied(state: UnleashState): string[] {
  const { users, apiTokens, archivedFlags, customContextFields, addons } = state.notCopied;
  const links = state.documents.reduce((n, d) => n + (d.data.links ?? []).reduce((m, l) => m + l.links.length, 0), 0);
  return [
    `${plural(users, "user")}: Unleash never gives out password hashes, and its roles are not Vexil's; add people with \`vexil user add\`.`,
    `${plural(apiTokens, "API token")}: a token's secret is Unleash's; make new ones with \`vexil token create\` and give them to your SDKs.`,
    customContextFields.length
      ? `context fields ${customContextFields.join(", ")}: Vexil keeps no context-field registry; constraints on them are copied and work as they are.`
      : "context fields: none of your own (Vexil keeps no registry; constraints on any field work as they are).",
    `${plural(archivedFlags, "archived flag")}: only live flags are copied.`,
    ...(state.disabledEnvironments.length
      ? [`disabled environments ${state.disabledEnvironments.join(", ")}: Unleash serves nothing from them.`]
      : []),
    `${plural(links, "feature link")}: Vexil has no feature links.`,
    `${plural(addons, "integration")} (addons): Vexil has none; set up webhooks again.`,
    "the event log, metrics and last-seen times, project settings (mode, default stickiness), roles and groups, and Enterprise data (change-request settings, release plans): Vexil starts its own.",
  ];
}
