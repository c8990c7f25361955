import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyEtag, type ClientScope } from "@vexil/services";
import { etagMatches } from "./etag-match.ts";

/** The part of a poll ETag that names the route's kind of answer and the token's scope (docs/sdk-protocols.md#poll-etags). */
export const pollAbout = (kind: string, scope: ClientScope, ...more: string[]) =>
  [kind, scope.environment, scope.projects.join("\u0001"), ...more].join("\u0000");

/**
 * Answers a browser's poll of an evaluated body (docs/sdk-protocols.md#poll-etags): with the ETag
 * of what the answer depends on, a matching If-None-Match is a 304 before anything is evaluated;
 * without one (evaluation would draw at random) the body is made and its digest is the ETag.
 */
export function answerPoll(req: IncomingMessage, res: ServerResponse, etag: string | undefined, body: () => Buffer): void {
  if (etag !== undefined && etagMatches(req.headers["if-none-match"], etag)) {
    res.writeHead(304, { etag });
    res.end();
    return;
  }
  const bytes = body();
  const tag = etag ?? bodyEtag(bytes);
  if (etag === undefined && etagMatches(req.headers["if-none-match"], tag)) {
    res.writeHead(304, { etag: tag });
    res.end();
    return;
  }
  res.writeHead(200, { etag: tag, "content-type": "application/json; charset=utf-8", "content-length": bytes.length });
  res.end(bytes);
}
