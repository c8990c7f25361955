import type { StoredEvent } from "../events/list-events.ts";
import type { Addon } from "./addon.ts";

/** Slack's `<url|text>` link, with the characters its markup reserves escaped. */
function link(url: string, text: string): string {
  return `<${url}|${slackEscape(text)}>`;
}

function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

const VERBS: Record<string, string> = {
  "feature-created": "created",
  "feature-metadata-updated": "changed the details of",
  "feature-archived": "archived",
  "feature-revived": "revived",
  "feature-deleted": "deleted",
  "feature-stale-on": "marked as stale",
  "feature-stale-off": "marked as no longer stale",
  "feature-environment-variants-updated": "changed the variants of",
  "feature-strategy-add": "added a strategy to",
  "feature-strategy-update": "changed a strategy of",
  "feature-strategy-remove": "removed a strategy from",
  "feature-tagged": "tagged",
  "feature-untagged": "untagged",
  "feature-dependency-added": "added a dependency to",
  "feature-dependency-removed": "removed a dependency from",
  "feature-completed": "marked as completed",
  "feature-uncompleted": "marked as not completed",
};

/**
 * A message a person reads in a channel (docs/webhooks.md#slack): who did what to which flag, in
 * which environment and project, each linked to its page in the console.
 */
export function slackMessage(addon: Addon, event: StoredEvent, consoleUrl: string) {
  const base = consoleUrl.replace(/\/+$/, "");
  const who = `*${slackEscape(event.createdBy)}*`;
  const project = event.project ? ` in project ${link(`${base}/projects/${encodeURIComponent(event.project)}`, event.project)}` : "";
  const env = event.environment ? ` in *${slackEscape(event.environment)}*` : "";
  const flag = event.featureName
    ? link(
        `${base}/projects/${encodeURIComponent(event.project ?? "default")}/features/${encodeURIComponent(event.featureName)}`,
        event.featureName,
      )
    : "";
  let text: string;
  if (event.type === "feature-environment-enabled" || event.type === "feature-environment-disabled") {
    text = `${who} turned ${flag} *${event.type.endsWith("enabled") ? "on" : "off"}*${env}${project}`;
  } else if (event.type === "feature-potentially-stale-on") {
    text = `${flag}${project} is *potentially stale*: it has lived longer than its type's expected lifetime. Archive it, or mark it as still in use.`;
  } else if (event.type.startsWith("change-request-")) {
    const data = (event.data ?? {}) as { id?: unknown };
    const what = event.type.slice("change-request-".length).replaceAll("-", " ");
    const request =
      typeof data.id === "number" && event.project
        ? link(`${base}/projects/${encodeURIComponent(event.project)}/change-requests/${data.id}`, `change request #${data.id}`)
        : "a change request";
    text = `${who}: ${request} ${what}${env}${project}`;
  } else if (VERBS[event.type] && flag) {
    text = `${who} ${VERBS[event.type]} ${flag}${env}${project}`;
  } else {
    text = `${who}: ${slackEscape(event.type)}${flag ? ` ${flag}` : ""}${env}${project} (${link(`${base}/events`, "event log")})`;
  }
  return {
    username: addon.parameters.username?.trim() || "Vexil",
    ...(addon.parameters.emojiIcon?.trim() ? { icon_emoji: addon.parameters.emojiIcon } : {}),
    ...(addon.parameters.defaultChannel?.trim() ? { channel: addon.parameters.defaultChannel } : {}),
    text,
  };
}
