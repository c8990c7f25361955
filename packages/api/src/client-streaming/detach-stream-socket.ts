import { createRequire } from "node:module";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

type HttpParser = object;
type FreeParser = (parser: HttpParser, req: null, socket: Socket) => void;

// Node's own step for an upgraded connection (`_http_common`, one of the `_http_*` modules that
// user code may require): it stops the parser reading the socket, takes it off the server's
// connection list and returns it to the pool. Absent on some future Node, streams stay responses.
const freeParser = (() => {
  try {
    const common = createRequire(import.meta.url)("_http_common") as { freeParser?: FreeParser };
    return typeof common.freeParser === "function" ? common.freeParser : undefined;
  } catch {
    return undefined;
  }
})();

/** The listeners node:http puts on a connection's socket, all of which an upgrade removes. */
const HTTP_SOCKET_EVENTS = ["data", "end", "close", "drain", "error", "timeout", "resume", "pause"] as const;

/**
 * Takes an event stream's socket out of node:http once its head and first event are written, as
 * Node does for an upgraded connection: the parser, the request, the response and their
 * closures go, and the socket is the stream (docs/sdk-protocols.md#streams-at-scale). Undefined,
 * and `res` left as it was, when that cannot be done; then the response stays the stream.
 */
export function detachStreamSocket(res: ServerResponse): Socket | undefined {
  const socket = res.socket as (Socket & { parser?: HttpParser | null }) | null;
  if (!freeParser || !res.headersSent || !socket?.parser || socket.destroyed) return undefined;
  const parser = socket.parser;
  for (const event of HTTP_SOCKET_EVENTS) socket.removeAllListeners(event);
  res.detachSocket(socket);
  freeParser(parser, null, socket);
  // Read (and drop) what the client sends, so that its leaving is seen; the connection is half-open
  // (node:http's sockets allow it), so its end is answered with ours.
  socket.on("error", () => socket.destroy());
  socket.on("end", () => socket.end());
  socket.resume();
  return socket;
}
