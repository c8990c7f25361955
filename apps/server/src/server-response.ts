import { randomUUID } from "node:crypto";
import { type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from "node:http";

type HeadFields = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * Every response of the server: the headers of an answer with a body, its request id and
 * `nosniff`, are added as its head is written, and a 304 goes without them, carrying only what
 * RFC 9110 §15.4.5 asks of it (docs/operations.md#response-headers).
 */
export class VexilResponse extends ServerResponse {
  #requestId: string | undefined;

  /**
   * The request's id, in `x-request-id` and in the request's log lines; made when first asked for,
   * so that a 304 that logs nothing makes none.
   */
  get requestId(): string {
    this.#requestId ??= randomUUID();
    return this.#requestId;
  }

  // Node writes every head through writeHead (an implicit one too), so nothing leaves without these.
  override writeHead(statusCode: number, reason?: string | HeadFields, headers?: HeadFields): this {
    if (statusCode !== 304) {
      this.setHeader("x-request-id", this.requestId);
      this.setHeader("x-content-type-options", "nosniff");
    }
    return typeof reason === "object" ? super.writeHead(statusCode, reason) : super.writeHead(statusCode, reason, headers);
  }
}
