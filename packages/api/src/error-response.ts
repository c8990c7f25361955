import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { isDatabaseUnavailable, isStatementTimeout } from "@vexil/db";
import {
  DomainError,
  detailsSentence,
  type DomainErrorName,
  NotFoundError,
  issueDetail,
  ServiceUnavailable,
  TooManyRequests,
  ValidationError,
  type ValidationDetail,
} from "@vexil/services";
import { ZodError } from "zod";
import { TransportError, type TransportErrorName } from "./transport-error.ts";

/** The one error body (docs/errors.md#error-body). */
export interface ErrorBody {
  id: string;
  name: ErrorName;
  message: string;
  details?: ValidationDetail[];
}

export interface HttpFailure {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Set for failures nobody expected: the error to log under `body.id`. */
  unexpected?: unknown;
  /** The error a known failure was mapped from, for a route whose protocol says more of it (SCIM's scimType). */
  cause?: DomainError | TransportError;
}

/**
 * A route that speaks another protocol (OFREP) answers its failures in that protocol's body: the
 * same status and headers, decided by toHttpFailure, in another shape.
 */
export type FailureBody = (
  failure: HttpFailure,
  params: Record<string, string>,
) => { status: number; body: unknown; headers: Record<string, string> };

/** Every name an error body can carry: a rule's, the transport's, or the one for a bug. */
export type ErrorName = DomainErrorName | TransportErrorName | "InternalError";

// The one place where error names become statuses; `satisfies` makes a missing or extra name a compile error.
export const STATUS_BY_NAME = {
  ValidationError: 400,
  AuthenticationRequired: 401,
  PasswordMismatch: 401,
  NoAccessError: 403,
  NotFoundError: 404,
  MethodNotAllowed: 405,
  NameExistsError: 409,
  ConflictError: 409,
  // As in Unleash, which answers password login 422 when it is turned off.
  DisabledError: 422,
  PayloadTooLarge: 413,
  ContentTypeerror: 415,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
} as const satisfies Record<ErrorName, number>;

const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

function fromZod(error: ZodError): ValidationError {
  const details = error.issues.map((issue) => issueDetail(issue));
  return new ValidationError(`The request is not valid: ${detailsSentence(details, "the body")}`, details);
}

function classify(error: unknown): DomainError | TransportError | { unexpected: unknown } {
  if (error instanceof TRPCError) {
    const cause = error.cause;
    if (cause instanceof DomainError || cause instanceof TransportError) return cause;
    if (cause instanceof ZodError) return fromZod(cause);
    switch (error.code) {
      case "PARSE_ERROR":
      case "BAD_REQUEST":
        return new ValidationError(error.message);
      case "NOT_FOUND":
        return new NotFoundError(error.message);
      case "METHOD_NOT_SUPPORTED":
        return new TransportError("MethodNotAllowed", error.message);
      case "PAYLOAD_TOO_LARGE":
        return new TransportError("PayloadTooLarge", error.message);
      case "UNSUPPORTED_MEDIA_TYPE":
        return new TransportError("ContentTypeerror", error.message);
    }
    return cause === undefined ? { unexpected: error } : classify(cause);
  }
  if (error instanceof DomainError || error instanceof TransportError) return error;
  if (error instanceof ZodError) return fromZod(error);
  if (isDatabaseUnavailable(error)) {
    return new ServiceUnavailable("The database cannot be reached right now; try again shortly.");
  }
  if (isStatementTimeout(error)) {
    return new ServiceUnavailable("The database took too long to answer; try again shortly.");
  }
  return { unexpected: error };
}

// tRPC reports one failure to both its error hook and its formatter; they must agree on the id.
const memo = new WeakMap<object, HttpFailure>();

/** Maps any thrown value to the status, body and headers the client gets. */
export function toHttpFailure(error: unknown): HttpFailure {
  if (error && typeof error === "object") {
    const known = memo.get(error);
    if (known) return known;
  }
  const kind = classify(error);
  const id = randomUUID();
  let failure: HttpFailure;
  if (kind instanceof DomainError || kind instanceof TransportError) {
    const status: number = STATUS_BY_NAME[kind.name];
    const body: ErrorBody = { id, name: kind.name, message: kind.message };
    const headers: Record<string, string> = kind instanceof TransportError ? { ...kind.headers } : {};
    if (kind instanceof ValidationError) body.details = kind.details;
    if (kind instanceof TooManyRequests) headers["retry-after"] = String(kind.retryAfterSeconds);
    if (kind.name === "ServiceUnavailable") headers["retry-after"] = String(RETRY_AFTER_UNAVAILABLE_SECONDS);
    failure = status === 500 ? unexpectedFailure(id, kind) : { status, body, headers, cause: kind };
  } else {
    failure = unexpectedFailure(id, kind.unexpected);
  }
  if (error && typeof error === "object") memo.set(error, failure);
  return failure;
}

function unexpectedFailure(id: string, error: unknown): HttpFailure {
  // Nothing internal leaves the process; the log line carries the same id.
  return {
    status: 500,
    body: { id, name: "InternalError", message: `Something went wrong on our side. Report this id to the operator: ${id}.` },
    headers: {},
    unexpected: error,
  };
}

/** The fields the tRPC transport adds to its error shape, so typed clients see the same facts. */
export function errorShape(error: unknown): { httpStatus: number } & ErrorBody {
  const failure = toHttpFailure(error);
  return { httpStatus: failure.status, ...failure.body };
}
