// Error codes that mean "the database cannot be reached now", as opposed to a bad query.
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"]);
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, crash).
const SQLSTATE_PREFIXES = ["08", "57P"];

/** True when an error means the database is down or unreachable, so the caller may retry later. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (typeof current !== "object") return false;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string") {
      if (NETWORK_CODES.has(code)) return true;
      if (SQLSTATE_PREFIXES.some((p) => code.startsWith(p))) return true;
    }
    if (
      typeof message === "string" &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)
    ) {
      return true;
    }
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** True when Postgres cancelled a statement for running past `statement_timeout`. */
export function isStatementTimeout(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "57014";
}
