import type { HeadersObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import { type ErrorName, STATUS_BY_NAME } from "./error-response.ts";

export const errorSchema: SchemaObject = {
  type: "object",
  required: ["id", "name", "message"],
  properties: {
    id: { type: "string", format: "uuid", description: "Id of this error instance; the server log carries it too." },
    name: { type: "string", description: "Name of the error kind, e.g. ValidationError." },
    message: { type: "string", description: "What went wrong, for a person." },
    details: {
      type: "array",
      description: "On 400: each offending field.",
      items: {
        type: "object",
        required: ["message", "path"],
        properties: { message: { type: "string" }, path: { type: "string" } },
      },
    },
  },
};

const EXAMPLE_ID = "0f8c2d4e-5b6a-4c3d-9e2f-1a7b8c9d0e1f";

/** For each error name: when a client gets it, and a message as the server words it. */
const ERRORS: Record<ErrorName, { when: string; message: string; details?: { path: string; message: string }[] }> = {
  ValidationError: {
    when: "the path or the body does not match the schema, the body is not valid JSON, or a rule of the operation refuses the input; `details` names each offending field",
    message: "Request validation failed: message: Too small: expected string to have >=1 characters",
    details: [{ path: "message", message: "Too small: expected string to have >=1 characters" }],
  },
  AuthenticationRequired: {
    when: "no credentials, or an unknown, expired or revoked token or session",
    message: "You must log in or provide a valid API token to use this resource.",
  },
  PasswordMismatch: {
    when: "wrong username or password (the same answer for both)",
    message: "Wrong password or username, please try again.",
  },
  NoAccessError: {
    when: "authenticated, but the permission is missing, or the token is of a kind this route does not take (client tokens only reach the client API, frontend tokens only the frontend API)",
    message: 'You need the "UPDATE_FEATURE_ENVIRONMENT_VARIANTS" permission to perform this action in the "production" environment.',
  },
  NotFoundError: {
    when: "something the path names does not exist; the message says which",
    message: 'The project "ghost" does not exist.',
  },
  MethodNotAllowed: {
    when: "the path exists but not with this method",
    message: "DELETE is not allowed on /api/admin/projects; use GET, POST.",
  },
  NameExistsError: {
    when: "the name or id is taken",
    message: 'A project with the id "web" already exists.',
  },
  ConflictError: {
    when: "the change conflicts with what is stored, e.g. deleting a segment that strategies still use",
    message: "The segment 3 is used by strategies and cannot be deleted; remove it from them first.",
  },
  DisabledError: {
    when: "this way of logging in is turned off on this server (password login, when PASSWORD_LOGIN=false); sign in with single sign-on instead",
    message: "Logging in with username/password has been disabled.",
  },
  PayloadTooLarge: {
    when: "the body is larger than the limit (256 KiB unless configured otherwise)",
    message: "The request body is larger than the limit of 262144 bytes.",
  },
  ContentTypeerror: {
    when: "a body came with a content type other than application/json",
    message: 'Content type "text/plain" is not supported; send the body as application/json and set the Content-Type header accordingly.',
  },
  TooManyRequests: {
    when: "too many failed logins; Retry-After says how many seconds to wait",
    message: "Too many failed logins in a row; wait before trying again.",
  },
  InternalError: {
    when: "an unexpected failure, which is a bug; the body carries only an id, the server log has the rest",
    message: `Something went wrong on our side. Report this id to the operator: ${EXAMPLE_ID}.`,
  },
  ServiceUnavailable: {
    when: "the database cannot be reached or took too long; Retry-After says how many seconds to wait",
    message: "The database cannot be reached right now; try again shortly.",
  },
};

const RETRY_AFTER: HeadersObject = {
  "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 1 } },
};

/**
 * The documented responses for these error names, one per status, each with the one Error schema,
 * or with `schema` on a route that answers its failures in another protocol's body (OFREP's, or
 * SCIM's in its own media type), or as an HTML page (`text/html`) on a step of a browser's sign-in
 * (docs/oidc.md#refusals).
 */
export function errorResponses(names: ErrorName[], schema?: SchemaObject, mediaType = "application/json"): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of names) {
    const status = STATUS_BY_NAME[name];
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples = Object.fromEntries(
      group.map((name) => {
        const { message, details } = ERRORS[name];
        return [name, { value: { id: EXAMPLE_ID, name, message, ...(details ? { details } : {}) } }];
      }),
    );
    responses[String(status)] = {
      description: group.map((name) => `${name}: ${ERRORS[name].when}.`).join(" "),
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      content:
        mediaType === "text/html"
          ? { "text/html": { schema: { type: "string" } } }
          : { [mediaType]: schema ? { schema } : { schema: { $ref: "#/components/schemas/Error" }, examples } },
    };
  }
  return responses;
}
