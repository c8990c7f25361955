/** The event types an integration may listen to: what Vexil records about flags, their changes and requests. */
export const ADDON_EVENT_TYPES = [
  "feature-created",
  "feature-metadata-updated",
  "feature-archived",
  "feature-revived",
  "feature-deleted",
  "feature-stale-on",
  "feature-stale-off",
  "feature-potentially-stale-on",
  "feature-environment-enabled",
  "feature-environment-disabled",
  "feature-environment-variants-updated",
  "feature-strategy-add",
  "feature-strategy-update",
  "feature-strategy-remove",
  "feature-tagged",
  "feature-untagged",
  "feature-dependency-added",
  "feature-dependency-removed",
  "feature-completed",
  "feature-uncompleted",
  "features-imported",
  "change-request-created",
  "change-request-change-added",
  "change-request-in-review",
  "change-request-approval-added",
  "change-request-approved",
  "change-request-rejected",
  "change-request-scheduled",
  "change-request-schedule-failed",
  "change-request-applied",
  "change-request-cancelled",
  "segment-created",
  "segment-updated",
  "segment-deleted",
] as const;

export const ADDON_PROVIDER_NAMES = ["webhook", "slack"] as const;
export type AddonProviderName = (typeof ADDON_PROVIDER_NAMES)[number];

/** One parameter of a provider, as Unleash's `addonParameterSchema` describes it. */
interface AddonParameterDefinition {
  name: string;
  displayName: string;
  type: "url" | "text" | "textfield";
  description: string;
  placeholder?: string;
  required: boolean;
  /** Answered as `*****`; a PUT that sends `*****` back keeps the stored value (as in Unleash). */
  sensitive: boolean;
}

export interface AddonProvider {
  name: AddonProviderName;
  displayName: string;
  description: string;
  documentationUrl: string;
  parameters: AddonParameterDefinition[];
  events: readonly string[];
}

const signingSecret: AddonParameterDefinition = {
  name: "signingSecret",
  displayName: "Signing secret",
  type: "text",
  description:
    "(Optional) The key of the X-Vexil-Signature header (HMAC-SHA256 of the body). Made up when left out, and shown once, in the answer to the create.",
  required: false,
  sensitive: true,
};

/** The providers `GET /api/admin/addons` lists (docs/webhooks.md#providers). */
export const ADDON_PROVIDERS: readonly AddonProvider[] = [
  {
    name: "webhook",
    displayName: "Webhook",
    description: "POSTs each event to a URL of yours, at least once, signed, with an idempotency key.",
    documentationUrl: "https://github.com/vexil/vexil/blob/main/docs/webhooks.md",
    parameters: [
      {
        name: "url",
        displayName: "Webhook URL",
        type: "url",
        description: "(Required) Where each event is POSTed.",
        required: true,
        sensitive: true,
      },
      {
        name: "contentType",
        displayName: "Content-Type",
        type: "text",
        placeholder: "application/json",
        description: '(Optional) The Content-Type header; "application/json" when left out.',
        required: false,
        sensitive: false,
      },
      {
        name: "authorization",
        displayName: "Authorization",
        type: "text",
        description: "(Optional) The Authorization header sent with each delivery.",
        required: false,
        sensitive: true,
      },
      {
        name: "bodyTemplate",
        displayName: "Body template",
        type: "textfield",
        placeholder: '{"event": "{{event.type}}", "createdBy": "{{event.createdBy}}", "feature": "{{event.featureName}}"}',
        description: "(Optional) The body, with {{event.field}} replaced by the event's fields; the event as JSON when left out.",
        required: false,
        sensitive: false,
      },
      {
        name: "customHeaders",
        displayName: "Extra HTTP headers",
        type: "textfield",
        placeholder: '{"X-Team": "flags"}',
        description: "(Optional) A JSON object of header names and string values sent with each delivery.",
        required: false,
        sensitive: true,
      },
      signingSecret,
    ],
    events: ADDON_EVENT_TYPES,
  },
  {
    name: "slack",
    displayName: "Slack",
    description: "Posts a readable message for each event, with a link to the console, to a Slack incoming webhook.",
    documentationUrl: "https://github.com/vexil/vexil/blob/main/docs/webhooks.md",
    parameters: [
      {
        name: "url",
        displayName: "Slack webhook URL",
        type: "url",
        description: "(Required) The incoming webhook's URL (https://hooks.slack.com/services/...).",
        required: true,
        sensitive: true,
      },
      {
        name: "username",
        displayName: "Username",
        type: "text",
        placeholder: "Vexil",
        description: '(Optional) The name the messages are posted under; "Vexil" when left out.',
        required: false,
        sensitive: false,
      },
      {
        name: "emojiIcon",
        displayName: "Emoji icon",
        type: "text",
        placeholder: ":triangular_flag_on_post:",
        description: "(Optional) The emoji the messages are posted with.",
        required: false,
        sensitive: false,
      },
      {
        name: "defaultChannel",
        displayName: "Channel",
        type: "text",
        description: "(Optional) The channel to post to, when the incoming webhook allows another than its own.",
        required: false,
        sensitive: false,
      },
      signingSecret,
    ],
    events: ADDON_EVENT_TYPES,
  },
];

export function addonProvider(name: string): AddonProvider | undefined {
  return ADDON_PROVIDERS.find((p) => p.name === name);
}
