import { createHmac } from "node:crypto";
import type { StoredEvent } from "../events/list-events.ts";
import type { Addon } from "./addon.ts";
import { renderBodyTemplate } from "./render-body-template.ts";
import { slackMessage } from "./slack-message.ts";

/** The HTTP request one delivery makes. */
export interface AddonRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The header names every delivery carries (docs/webhooks.md#what-a-receiver-gets). */
const IDEMPOTENCY_HEADER = "idempotency-key";
const SIGNATURE_HEADER = "x-vexil-signature";
/** `application/json` and the `+json` types (`application/cloudevents+json`), with or without parameters. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** The event as `GET /api/admin/events` shows it: the webhook's default body and its template's `event`. */
function eventJson(event: StoredEvent) {
  return { ...event, createdAt: event.createdAt.toISOString() };
}

/**
 * What to send for an event: the provider's body, its headers, and ours last so that no custom
 * header overrides them: the idempotency key (the same on every attempt at this integration and
 * event) and the HMAC-SHA256 signature of the exact body with the integration's secret.
 */
export function addonRequest(addon: Addon, event: StoredEvent, consoleUrl: string): AddonRequest {
  const headers: Record<string, string> = {};
  let body: string;
  if (addon.provider === "slack") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(slackMessage(addon, event, consoleUrl));
  } else {
    const template = addon.parameters.bodyTemplate;
    headers["content-type"] = addon.parameters.contentType?.trim() || "application/json";
    body = template?.trim()
      ? renderBodyTemplate(template, { event: eventJson(event) }, JSON_TYPE.test(headers["content-type"]))
      : JSON.stringify(eventJson(event));
    if (addon.parameters.authorization?.trim()) headers.authorization = addon.parameters.authorization;
    const custom = addon.parameters.customHeaders?.trim();
    if (custom) {
      for (const [name, value] of Object.entries(JSON.parse(custom) as Record<string, string>)) headers[name.toLowerCase()] = value;
    }
  }
  headers["user-agent"] = "vexil-webhook";
  headers[IDEMPOTENCY_HEADER] = `vexil-${addon.id}-${event.id}`;
  headers["x-vexil-event"] = event.type;
  headers[SIGNATURE_HEADER] = `sha256=${createHmac("sha256", addon.signingSecret).update(body).digest("hex")}`;
  return { url: addon.parameters.url as string, headers, body };
}
