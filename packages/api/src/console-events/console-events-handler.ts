import { type ConsoleNotice, ServiceUnavailable } from "@vexil/services";
import { credentialTags } from "../credential-tags.ts";
import { sendJson } from "../rest-bridge.ts";
import type { RawHandler } from "../trpc.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-store",
  "x-accel-buffering": "no",
  connection: "keep-alive",
};
/** How soon a browser's EventSource reconnects after a drop (its own default is about 3 s). */
const CONSOLE_RETRY_MS = 1000;
/** What the stream says first, and all that a JSON caller (over tRPC, or Accept: application/json) gets. */
export const CONSOLE_EVENTS_OPENED = { retryMs: CONSOLE_RETRY_MS };

/** Whether the caller asked for JSON and not for events (a browser's EventSource sends `Accept: text/event-stream`). */
function wantsJson(accept: string | undefined): boolean {
  return !!accept && /\bapplication\/json\b/.test(accept) && !/\btext\/event-stream\b/.test(accept);
}

const frame = (notice: ConsoleNotice) => `data: ${JSON.stringify(notice)}\n\n`;

/**
 * `GET /api/admin/console-events` over REST (docs/console-live.md#the-stream): server-sent events
 * telling an open console, by its session cookie, what each write on any instance touched, so that it reads
 * those pages' data again. It counts among the instance's streams (heartbeats, the limit, shutdown);
 * a console that loses it reconnects and reads everything again, since it may have missed notices.
 */
export const handleConsoleEvents: RawHandler = async (req, res, ctx) => {
  if (wantsJson(req.headers.accept)) return sendJson(res, 200, CONSOLE_EVENTS_OPENED);
  if (res.destroyed) return;
  if (!ctx.deps.clientStreams.hold(res, credentialTags(ctx.principal))) {
    throw new ServiceUnavailable("This instance holds as many streams as it may; the console reads its pages as they open instead.");
  }
  res.writeHead(200, SSE_HEADERS);
  res.write(`retry: ${CONSOLE_RETRY_MS}\n: connected\n\n`);
  // Ended (a revoked credential) before it closed: nothing more is written.
  const unsubscribe = ctx.deps.consoleEvents.subscribe((notice) => !res.writableEnded && res.write(frame(notice)));
  res.on("close", unsubscribe);
};
