import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { ValidationError, type ValidationDetail } from "../errors/domain-error.ts";
import { ADDON_EVENT_TYPES, type AddonProviderName, addonProvider } from "./addon-providers.ts";

/** What an answer shows in place of a sensitive parameter (docs/webhooks.md#sensitive-parameters). */
export const MASKED = "*****";

/** An integration as stored: its parameters in full, the signing secret among them. */
export interface Addon {
  id: number;
  provider: AddonProviderName;
  description: string | null;
  enabled: boolean;
  parameters: Record<string, string>;
  events: string[];
  projects: string[];
  environments: string[];
  createdAt: Date;
  signingSecret: string;
}

/** The fields a client writes. */
export interface AddonFields {
  provider: string;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
  parameters: Record<string, string>;
  events: string[];
  projects?: string[] | undefined;
  environments?: string[] | undefined;
}

/** The one place where a stored row becomes an Addon. */
export function addonFromRow(row: Selectable<Database["addons"]>): Addon {
  return {
    id: row.id,
    provider: row.provider as AddonProviderName,
    description: row.description,
    enabled: row.enabled,
    parameters: row.parameters as Record<string, string>,
    events: row.events,
    projects: row.projects,
    environments: row.environments,
    createdAt: row.created_at,
    signingSecret: row.signing_secret,
  };
}

/** An integration as answered: sensitive parameters (the secret among them) show as `*****`. */
export type AddonView = Omit<Addon, "signingSecret">;

/**
 * What an answer shows (docs/webhooks.md#sensitive-parameters): every sensitive parameter masked,
 * in reads and in the answers to writes alike, but for the signing secret in the answer to the
 * create that made it up (`showSecret`), the one time it is shown.
 */
export function addonView(addon: Addon, showSecret = false): AddonView {
  const { signingSecret, ...rest } = addon;
  const provider = addonProvider(addon.provider);
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...addon.parameters, signingSecret })) {
    const sensitive = provider?.parameters.find((p) => p.name === name)?.sensitive ?? false;
    parameters[name] = sensitive && !(showSecret && name === "signingSecret") ? MASKED : value;
  }
  return { ...rest, parameters };
}

const URL_MAX = 2_000;
const TEXT_MAX = 10_000;

/** Every rule a stored integration keeps (docs/webhooks.md#providers); all broken ones in one 400. */
export function assertValidAddon(fields: AddonFields): void {
  const details: ValidationDetail[] = [];
  const provider = addonProvider(fields.provider);
  if (!provider) {
    details.push({ path: "provider", message: 'must be "webhook" or "slack"' });
  } else {
    const known = new Set(provider.parameters.map((p) => p.name));
    for (const name of Object.keys(fields.parameters)) {
      if (!known.has(name)) details.push({ path: `parameters.${name}`, message: `is not a parameter of ${provider.name}` });
    }
    for (const parameter of provider.parameters) {
      const value = fields.parameters[parameter.name];
      if (parameter.required && (value === undefined || value.trim() === "")) {
        details.push({ path: `parameters.${parameter.name}`, message: "is required" });
      }
    }
    for (const [name, value] of Object.entries(fields.parameters)) {
      if (value.length > (name === "url" ? URL_MAX : TEXT_MAX)) {
        details.push({ path: `parameters.${name}`, message: `must be at most ${name === "url" ? URL_MAX : TEXT_MAX} characters` });
      }
    }
    const url = fields.parameters.url;
    if (url !== undefined && url.trim() !== "" && !isHttpUrl(url)) {
      details.push({ path: "parameters.url", message: "must be an http:// or https:// URL" });
    }
    const headers = fields.parameters.customHeaders;
    if (headers !== undefined && headers.trim() !== "" && !isHeaderObject(headers)) {
      details.push({ path: "parameters.customHeaders", message: "must be a JSON object of header names and string values" });
    }
    const secret = fields.parameters.signingSecret;
    if (secret !== undefined && (secret.length < 16 || secret.length > 200)) {
      details.push({ path: "parameters.signingSecret", message: "must be 16 to 200 characters" });
    }
  }
  if (fields.events.length === 0) details.push({ path: "events", message: "must name at least one event type" });
  const events = new Set<string>(ADDON_EVENT_TYPES);
  for (const [i, type] of fields.events.entries()) {
    if (!events.has(type)) details.push({ path: `events.${i}`, message: `is not an event type integrations hear ("${type}")` });
  }
  if (details.length > 0) {
    throw new ValidationError(`Invalid integration: ${details.map((d) => `${d.path} ${d.message}`).join("; ")}.`, details);
  }
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function isHeaderObject(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
    return Object.entries(parsed).every(([name, v]) => HEADER_NAME.test(name) && typeof v === "string" && !/[\r\n\0]/.test(v));
  } catch {
    return false;
  }
}
