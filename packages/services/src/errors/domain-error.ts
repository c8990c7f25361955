/** The error names business rules may throw; closed, so a misspelt name fails `tsc` instead of becoming a 500 at the edge. */
export type DomainErrorName =
  | "ValidationError"
  | "AuthenticationRequired"
  | "PasswordMismatch"
  | "DisabledError"
  | "NoAccessError"
  | "NotFoundError"
  | "NameExistsError"
  | "ConflictError"
  | "TooManyRequests"
  | "ServiceUnavailable";

/**
 * The errors business rules throw. Each carries an error name of docs/errors.md#error-names and a sentence
 * for a person, never an HTTP status or path: the edge maps names to statuses in one place.
 */
export class DomainError extends Error {
  override readonly name: DomainErrorName;
  constructor(name: DomainErrorName, message: string) {
    super(message);
    this.name = name;
  }
}

export interface ValidationDetail {
  message: string;
  path: string;
}

export class ValidationError extends DomainError {
  readonly details: ValidationDetail[];
  constructor(message: string, details: ValidationDetail[] = [{ message, path: "" }]) {
    super("ValidationError", message);
    this.details = details;
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super("NotFoundError", message);
  }
}

export class NameExistsError extends DomainError {
  constructor(message: string) {
    super("NameExistsError", message);
  }
}

export class AuthenticationRequired extends DomainError {
  constructor(message = "You must log in or provide a valid API token to use this resource.") {
    super("AuthenticationRequired", message);
  }
}

export class PasswordMismatch extends DomainError {
  constructor() {
    super("PasswordMismatch", "Wrong password or username, please try again.");
  }
}

/** A way of doing something is turned off on this server (password login, with PASSWORD_LOGIN=false); Unleash's name. */
export class DisabledError extends DomainError {
  constructor(message: string) {
    super("DisabledError", message);
  }
}

export class NoAccessError extends DomainError {
  readonly permission: string | undefined;
  constructor(message: string, permission?: string) {
    super("NoAccessError", message);
    this.permission = permission;
  }

  /**
   * The 403 of docs/errors.md#no-access: names the permission (and the environment, and the project
   * when the caller's project roles decided: docs/project-roles.md#the-403); `why` says more, when there is more.
   */
  static forPermission(permission: string, environment?: string, why?: string, project?: string): NoAccessError {
    const inProject = project === undefined ? "" : ` of the "${project}" project`;
    const where = environment
      ? ` in the "${environment}" environment${inProject}`
      : project === undefined
        ? ""
        : ` in the "${project}" project`;
    return new NoAccessError(`You need the "${permission}" permission to perform this action${where}.${why ? ` ${why}` : ""}`, permission);
  }
}

export class TooManyRequests extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super("TooManyRequests", message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** The work cannot be done now (the process is stopping, the database cannot be reached); the caller may retry. */
export class ServiceUnavailable extends DomainError {
  constructor(message: string) {
    super("ServiceUnavailable", message);
  }
}

/** The request conflicts with what is stored (a segment still in use). */
export class ConflictError extends DomainError {
  constructor(message: string) {
    super("ConflictError", message);
  }
}

/**
 * True when a rule itself refused the work, so doing it again gets the same answer; false for a
 * failure of the moment (the service unavailable, too many requests, the database lost, a bug).
 */
export function isRuleFailure(error: unknown): error is DomainError {
  return error instanceof DomainError && error.name !== "ServiceUnavailable" && error.name !== "TooManyRequests";
}
