import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./schema-arbitrary.ts";

const DOC_ID = "vexil-openapi";
// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export interface ResponseCheck {
  /** Why the response breaks the document, or null when it keeps to it. */
  problem(method: string, path: string, status: number, contentType: string | undefined, body: unknown): string | null;
}

/** Checks responses against the statuses and schemas the served OpenAPI document declares. */
export function responseChecker(doc: JsonSchema): ResponseCheck {
  // The document's own keywords (example, discriminator, ...) are not JSON Schema: not strict.
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const cache = new Map<string, ValidateFunction>();
  const absolute = (schema: JsonSchema) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`));

  return {
    problem(method, path, status, contentType, body) {
      const operation = doc.paths?.[path]?.[method.toLowerCase()];
      if (!operation) return `${method} ${path} is not in the document`;
      const response = operation.responses?.[String(status)] ?? operation.responses?.default;
      if (!response) return `status ${status} is not declared (declared: ${Object.keys(operation.responses ?? {}).join(", ")})`;
      // A stream of server-sent events, where the document declares one, has no JSON to check.
      if (/^text\/event-stream\b/.test(contentType ?? "") && response.content?.["text/event-stream"]) return null;
      // JSON in the media type the document names: application/json, or a protocol's own (SCIM's application/scim+json).
      const media = Object.keys(response.content ?? {}).filter((m) => m !== "text/event-stream" && response.content[m].schema);
      if (media.length === 0) return null;
      const sent = (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase();
      const chosen = media.find((m) => m === sent);
      if (!chosen) return `content type ${contentType} is not ${media.join(" or ")}`;
      const schema = response.content[chosen].schema;
      const key = `${method} ${path} ${status} ${chosen}`;
      let validate = cache.get(key);
      if (!validate) {
        validate = ajv.compile(absolute(schema));
        cache.set(key, validate);
      }
      if (validate(body)) return null;
      return `the ${status} body does not match its schema: ${ajv.errorsText(validate.errors)}`;
    },
  };
}
