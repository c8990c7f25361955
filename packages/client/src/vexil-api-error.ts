/** One field that failed validation, as a 400 names it. */
export interface VexilErrorDetail {
  path: string;
  message: string;
}

/**
 * Any failure the API answered, over REST or tRPC: the HTTP status and the error body
 * `{id, name, message, details?}` (docs/errors.md#error-body). `name` is the error kind, e.g. `NotFoundError`.
 */
export class VexilApiError extends Error {
  readonly status: number;
  /** Id of this error instance; the server's log carries it too. */
  readonly id: string;
  readonly details: VexilErrorDetail[] | undefined;

  constructor(status: number, body: { id: string; name: string; message: string; details?: VexilErrorDetail[] }) {
    super(body.message);
    this.name = body.name;
    this.status = status;
    this.id = body.id;
    this.details = body.details;
  }
}
