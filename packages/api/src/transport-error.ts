/**
 * The error names only the edge answers, about the HTTP request itself rather than a business
 * rule; closed, so a misspelt name fails `tsc` instead of becoming a 500.
 * `ContentTypeerror` keeps the lower-case "e" of the name as first documented (docs/errors.md#contenttypeerror), because
 * clients match the name to the letter.
 */
export type TransportErrorName = "MethodNotAllowed" | "PayloadTooLarge" | "ContentTypeerror";

/** A request the REST bridge or the tRPC transport refuses before any procedure runs. */
export class TransportError extends Error {
  override readonly name: TransportErrorName;
  /** Headers the answer carries (a 405's Allow). */
  readonly headers: Record<string, string>;
  constructor(name: TransportErrorName, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = name;
    this.headers = headers;
  }
}
