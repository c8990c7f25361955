import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "@vexil/api";
import type { Config } from "./config.ts";
import { VexilResponse } from "./server-response.ts";

/** The HTTP server around a request handler, with the configured timeouts; it never listens (see server.ts). */
export function createHttpServer(handle: (req: IncomingMessage, res: VexilResponse) => void, config: Config, log: Logger): Server {
  const server = createServer({ ServerResponse: VexilResponse }, handle);
  // Node answers what it cannot parse as HTTP with a bare reply of its own; ours carries the one error body.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const [status, reason] = timedOut ? [408, "Request Timeout"] : [400, "Bad Request"];
    const body = JSON.stringify({
      id: randomUUID(),
      name: timedOut ? "RequestTimeout" : "ValidationError",
      message: timedOut ? "The request was not received in time." : "The request could not be parsed as HTTP.",
    });
    log.info({ code: error.code, status }, "unparseable request");
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-content-type-options: nosniff\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;
  server.headersTimeout = config.HEADERS_TIMEOUT_MS;
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
  // Its responses are VexilResponses; to its users it is any node:http server.
  return server as unknown as Server;
}
