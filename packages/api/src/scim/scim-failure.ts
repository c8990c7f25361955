import { ScimRefusal } from "@vexil/services";
import type { SchemaObject } from "openapi3-ts/oas31";
import type { FailureBody } from "../error-response.ts";

const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";
/** SCIM's media type (RFC 7644 §3.1); requests may also come as application/json. */
export const SCIM_MEDIA_TYPE = "application/scim+json";
export const SCIM_CONTENT_TYPE = `${SCIM_MEDIA_TYPE}; charset=utf-8`;

/**
 * Every failure on a SCIM route, in SCIM's error body (RFC 7644 §3.12; docs/scim.md#errors):
 * `{schemas: [Error], status: "<status as a string>", scimType?, detail}`, with the status and
 * headers of the one mapping. A 400 names its scimType (the refusal's own, else invalidSyntax for
 * a body that is no JSON and invalidValue for the rest), a taken name is a 409 `uniqueness`.
 */
export const scimFailureBody: FailureBody = (failure) => {
  let scimType: string | undefined;
  const cause = failure.cause;
  if (cause instanceof ScimRefusal) scimType = cause.scimType;
  else if (failure.body.name === "ValidationError") {
    scimType = failure.body.details?.some((d) => d.message === "malformed JSON") ? "invalidSyntax" : "invalidValue";
  } else if (failure.body.name === "NameExistsError") scimType = "uniqueness";
  return {
    status: failure.status,
    headers: { ...failure.headers, "content-type": SCIM_CONTENT_TYPE },
    body: {
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(failure.status),
      ...(scimType ? { scimType } : {}),
      detail: failure.body.message,
    },
  };
};

/** The OpenAPI schema of those bodies. */
export const scimFailureSchema: SchemaObject = {
  type: "object",
  required: ["schemas", "status", "detail"],
  properties: {
    schemas: { type: "array", items: { type: "string", enum: [SCIM_ERROR_SCHEMA] } },
    status: { type: "string", description: "The HTTP status, as a string (RFC 7644 §3.12)." },
    scimType: {
      type: "string",
      enum: ["invalidFilter", "invalidPath", "invalidSyntax", "invalidValue", "noTarget", "mutability", "uniqueness"],
      description: "What kind of 400 (or 409 uniqueness) it is.",
    },
    detail: { type: "string", description: "What went wrong, for a person." },
  },
};
