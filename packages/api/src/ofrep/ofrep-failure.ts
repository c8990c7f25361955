import type { SchemaObject } from "openapi3-ts/oas31";
import type { FailureBody } from "../error-response.ts";

/** OFREP's error codes that Vexil answers (OpenFeature's error codes). */
type OfrepErrorCode = "FLAG_NOT_FOUND" | "PARSE_ERROR" | "INVALID_CONTEXT" | "GENERAL";

const inContext = (path: string) => path === "context" || path.startsWith("context.");

/**
 * Every failure on an OFREP route, in OFREP's body (docs/ofrep.md#ofrep): `{key?,
 * errorCode, errorDetails}`, with the status and headers (Retry-After among them) of the one
 * mapping. A 400 about the context is INVALID_CONTEXT, any other 400 (a body that is no JSON
 * object), 413 and 415 are PARSE_ERROR, a 404 of a flag is FLAG_NOT_FOUND, the rest GENERAL. The request id
 * stays in `x-request-id`, and a 500's id in its details.
 */
export const ofrepFailureBody: FailureBody = (failure, params) => {
  let errorCode: OfrepErrorCode = "GENERAL";
  switch (failure.body.name) {
    case "NotFoundError":
      // Only the single-flag route names a flag; the event stream's 404 is about its ticket.
      if (params.key !== undefined) errorCode = "FLAG_NOT_FOUND";
      break;
    case "ValidationError":
      errorCode = failure.body.details?.some((d) => inContext(d.path)) ? "INVALID_CONTEXT" : "PARSE_ERROR";
      break;
    case "ContentTypeerror":
    case "PayloadTooLarge":
      errorCode = "PARSE_ERROR";
      break;
  }
  const key = params.key;
  return {
    status: failure.status,
    headers: failure.headers,
    body: { ...(key !== undefined ? { key } : {}), errorCode, errorDetails: failure.body.message },
  };
};

/** The OpenAPI schema of those bodies (OFREP's `evaluationFailure`, `flagNotFound` and `bulkEvaluationFailure` in one). */
export const ofrepFailureSchema: SchemaObject = {
  type: "object",
  required: ["errorCode"],
  properties: {
    key: { type: "string", description: "The flag asked for (single-flag evaluation only)." },
    errorCode: { type: "string", enum: ["FLAG_NOT_FOUND", "PARSE_ERROR", "INVALID_CONTEXT", "GENERAL"] },
    errorDetails: { type: "string", description: "What went wrong, for a person." },
  },
};
