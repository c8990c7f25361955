import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { ProtectedContext } from "../context.ts";
import { etagMatches } from "../etag-match.ts";
import type { RawHandler } from "../trpc.ts";
import { ofrepFlags } from "./ofrep-evaluate.ts";
import { ofrepStreamTicket } from "./ofrep-stream-ticket.ts";

/** The origin the caller reached: its Host, and the scheme a proxy says it was asked in (the answer goes back to that caller only). */
function requestOrigin(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  const forwarded = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    ?.trim();
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : (req.socket as TLSSocket).encrypted ? "https" : "http";
  return `${scheme}://${host}`;
}

/** OFREP 0.3's `eventStreams`: the SSE URL that tells this token's providers when its flags change. */
function eventStreams(req: IncomingMessage, ctx: ProtectedContext): { type: "sse"; url: string }[] {
  const origin = requestOrigin(req);
  if (!origin || !("tokenId" in ctx.principal)) return [];
  return [{ type: "sse", url: `${origin}/ofrep/v1/event-stream/${ofrepStreamTicket(ctx.deps.cookies.secret, ctx.principal.tokenId)}` }];
}

/**
 * `POST /ofrep/v1/evaluate/flags` over REST (docs/sdk-protocols.md#ofrep): every flag of the
 * token's scope for the context, with `eventStreams`; the ETag is a digest of the answer, so it
 * changes with the flags and with the context, and a matching If-None-Match is a 304.
 */
export const handleOfrepFlags: RawHandler = async (req, res, ctx, { body }) => {
  const flags = await ofrepFlags(ctx, body);
  const streams = eventStreams(req, ctx);
  const payload = Buffer.from(JSON.stringify(streams.length ? { flags, eventStreams: streams } : { flags }));
  const etag = `"${createHash("sha256").update(payload).digest("base64url").slice(0, 27)}"`;
  if (etagMatches(req.headers["if-none-match"], etag)) {
    res.writeHead(304, { etag });
    res.end();
    return;
  }
  res.writeHead(200, { etag, "content-type": "application/json; charset=utf-8", "content-length": payload.length });
  res.end(payload);
};
