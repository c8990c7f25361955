import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import type {
  OperationObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
  SecurityRequirementObject,
  SecuritySchemeObject,
} from "openapi3-ts/oas31";
import type { AnyRouter } from "@trpc/server";
import { errorResponses, errorSchema } from "./openapi-errors.ts";
import { OPERATION_EXAMPLES, type OperationExample } from "./operation-examples.ts";
import { operationFailures } from "./operation-failures.ts";
import { restRoutes } from "./rest-routes.ts";
import { SESSION_COOKIE } from "./session-cookie.ts";
import type { Meta } from "./trpc.ts";

const SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  apiToken: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description:
      "An admin API token (`*:*.<secret>`) or a personal access token (`user:<secret>`), as given when it was created; on the client API, a client token (`<project>:<environment>.<secret>`); on the frontend API, a frontend token of the same form; on SCIM (`/scim/v2`), a SCIM token (`scim:<secret>`) and nothing else. A `Bearer ` prefix is accepted.",
  },
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "The same tokens as in Authorization (OpenFeature's providers send theirs here).",
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: "The session cookie that `POST /auth/simple/login` sets; a browser on this origin sends it by itself.",
  },
};

/** A 200 that a raw handler may send as server-sent events; a caller that accepts only JSON gets the procedure's output. */
const eventStreamSuccess = (json: ResponseObject, description: string): ResponseObject => ({
  description,
  content: { "text/event-stream": { schema: { type: "string" } }, ...json.content },
});

const redirectTo = (description: string): ResponseObject => ({
  description,
  headers: {
    Location: { description: "Where the browser goes next", schema: { type: "string" } },
    "Set-Cookie": { description: "The cookie this step sets", schema: { type: "string" } },
  },
});

const NOT_MODIFIED: ResponseObject = { description: "Not modified: the If-None-Match matched the ETag; no body." };
const NO_CONTENT: ResponseObject = { description: "Done; no body." };

const ANY_CREDENTIALS: SecurityRequirementObject[] = [{ apiToken: [] }, { sessionCookie: [] }];

/**
 * The OpenAPI 3.1 document of the REST surface: trpc-to-openapi's paths and schemas, corrected to
 * what the REST bridge really does (success status, bare array bodies, what raw handlers answer
 * besides JSON, every error status with the one Error schema, credentials, examples).
 */
export function createOpenApiDocument(router: AnyRouter, info: { version: string; baseUrl?: string }): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: "Vexil admin API",
    version: info.version,
    baseUrl: info.baseUrl ?? "/",
    description:
      "Administration API for feature flags, wire-compatible with Unleash's admin API. Every error is `{id, name, message}` (plus `details` on 400). Authenticate with an API token in the Authorization header, or log in for a session cookie.",
    securitySchemes: SECURITY_SCHEMES,
  });

  const documented = new Map(restRoutes(router).map((route) => [`${route.method.toLowerCase()} ${route.path}`, route]));

  const schemas = { ...doc.components?.schemas };
  // trpc-to-openapi's own error shapes are not what the server sends.
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  doc.components = { ...doc.components, schemas: { ...schemas, Error: errorSchema } };

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationObject>)) {
      const found = documented.get(`${method} ${path}`);
      if (!found) continue;
      const example = OPERATION_EXAMPLES[found.procedurePath] ?? {};
      operation.security = securityOf(found.meta);
      if (operation.requestBody) operation.requestBody = requestBodyOf(operation.requestBody as RequestBodyObject, found.meta, example);
      const raw = found.meta.raw;
      if (raw?.redirect) {
        // A step of a browser's sign-in: a redirect, or a page that says why not.
        operation.responses = { "302": redirectTo(raw.redirect), ...errorResponses(operationFailures(found), undefined, "text/html") };
        continue;
      }
      const success = successOf(operation.responses?.["200"] as ResponseObject, example, raw?.mediaType);
      const status = found.meta.successStatus ?? 200;
      operation.responses = {
        [String(status)]: status === 204 ? NO_CONTENT : raw?.eventStream ? eventStreamSuccess(success, raw.eventStream) : success,
        ...(raw?.notModified ? { "304": NOT_MODIFIED } : {}),
        ...errorResponses(operationFailures(found), raw?.failureSchema, raw?.mediaType),
      };
    }
  }
  return doc;
}

function securityOf(meta: Meta): OperationObject["security"] {
  // SDKs send a client (or admin) token; a session is not enough.
  if (meta.access === "client" || meta.access === "frontend") return [{ apiToken: [] }];
  if (meta.access === "sdk") return [{ apiToken: [] }, { apiKey: [] }];
  // Identity providers send their SCIM token as a bearer token.
  if (meta.access === "scim") return [{ apiToken: [] }];
  if ((meta.access ?? "authenticated") !== "public") return ANY_CREDENTIALS;
  // Public, yet logout ends the session whose cookie comes along.
  return meta.openapi?.path === "/logout" ? [{}, { sessionCookie: [] }] : [];
}

function requestBodyOf(body: RequestBodyObject, meta: Meta, example: OperationExample): RequestBodyObject {
  const media = body.content["application/json"];
  let schema = media?.schema as SchemaObject | ReferenceObject | undefined;
  let required: boolean;
  if (meta.bodyField) {
    // The bridge hands the whole body (a JSON array) to this one input field.
    schema = (schema as SchemaObject | undefined)?.properties?.[meta.bodyField];
    required = true;
  } else {
    // A body is optional when the bridge accepts the request without one.
    required = ((schema as SchemaObject | undefined)?.required?.length ?? 0) > 0;
  }
  const content = { schema: schema ?? {}, ...(example.body !== undefined ? { example: example.body } : {}) };
  // A protocol with its own media type (SCIM's) takes it and application/json alike.
  return {
    ...body,
    required,
    content: { ...(meta.raw?.mediaType ? { [meta.raw.mediaType]: content } : {}), "application/json": content },
  };
}

function successOf(response: ResponseObject, example: OperationExample, mediaType = "application/json"): ResponseObject {
  const media = response.content?.["application/json"];
  return {
    ...response,
    description: response.description === "Successful response" ? "Success" : response.description,
    content: { [mediaType]: { ...media, ...(example.response !== undefined ? { example: example.response } : {}) } },
  };
}
