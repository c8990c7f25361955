import type { IncomingMessage } from "node:http";
import { ValidationError } from "@vexil/services";
import { TransportError } from "./transport-error.ts";

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** Reads a body without a declared length up to `limit` bytes; over it, stops reading and throws PayloadTooLarge. */
async function readChunkedBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw payloadTooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A body of a declared length within the limit: Node's parser delivers no more than that, so it is
 * read by events alone (an async iterator per request showed in the CPU profile of OFREP's polls).
 */
function readDeclaredBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const settle = (error?: Error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", settle);
      req.off("close", onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    const onEnd = () => settle();
    // Closed before its end (the client went away): failed, as the async iterator fails it.
    const onClose = () => settle(new Error("The request was closed before its body ended."));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", settle);
    req.on("close", onClose);
  });
}

function payloadTooLarge(limit: number): TransportError {
  return new TransportError("PayloadTooLarge", `The request body is larger than the limit of ${limit} bytes.`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : "unreadable";
    throw new ValidationError(`The request body is not valid JSON: ${reason}`, [{ path: "", message: "malformed JSON" }]);
  }
}

/** A Content-Type's media type without its parameters, lower-cased. */
const mediaTypeOf = (contentType: string) => (contentType.split(";", 1)[0] as string).trim().toLowerCase();

function requestHasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/** A request's JSON body: its value, and the text it was read from (a repeated poll is known by it). */
export interface JsonBody {
  value: unknown;
  text: string | undefined;
}

/** What a route without a body is given. */
export const NO_BODY: JsonBody = Object.freeze({ value: undefined, text: undefined });

const jsonBodyOf = (bytes: Buffer): JsonBody => {
  const text = bytes.toString("utf8");
  return { value: parseJson(text), text };
};

/**
 * A request's JSON body, checked in the order of docs/errors.md#check-order: content type (415), size (413), JSON
 * (400). Its value is `undefined` when the request has no body; its socket is then free for the next request.
 * A small body usually arrives with its request's head, and the parser has taken all of it by the time a
 * route reads it: it is then read at once, without a promise (a thrown error is the refusal); else a promise.
 */
export function readJsonBody(req: IncomingMessage, limit: number, mediaType?: string): JsonBody | Promise<JsonBody> {
  if (!requestHasBody(req)) {
    // An unread body would otherwise hold the connection's next request hostage.
    req.resume();
    return NO_BODY;
  }
  const type = req.headers["content-type"] ?? "";
  if (!JSON_TYPE.test(type) && !(mediaType !== undefined && mediaTypeOf(type) === mediaType)) {
    const sendAs = mediaType === undefined ? "application/json" : `${mediaType} or application/json`;
    throw new TransportError(
      "ContentTypeerror",
      `Content type "${type || "(none)"}" is not supported; send the body as ${sendAs} and set the Content-Type header accordingly.`,
    );
  }
  const declared = Number(req.headers["content-length"]);
  if (!Number.isFinite(declared)) return readChunkedBody(req, limit).then(jsonBodyOf);
  if (declared > limit) throw payloadTooLarge(limit);
  if (req.complete && req.readableLength === declared) {
    // Without a size, read() takes everything buffered: the whole body.
    const whole = req.read() as Buffer | null;
    if (whole !== null) return jsonBodyOf(whole);
  }
  return readDeclaredBody(req).then(jsonBodyOf);
}
