// Baseline (a): a bare node:http server answering the same JSON bodies from memory, the ceiling of
// the HTTP layer on this machine. Started by bench.ts with the bodies the real server answered.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";

const bodies = JSON.parse(readFileSync(process.env.BENCH_BODIES as string, "utf8")) as Record<string, string>;
interface Reply {
  status: number;
  body: Buffer;
  headers: Record<string, string>;
}
const json = (status: number, body: string): Reply => ({
  status,
  body: Buffer.from(body),
  headers: { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(body)) },
});
const variants = json(200, bodies.variants ?? "{}");
const pending = json(200, bodies.pending ?? "[]");
const banner = json(201, bodies.banner ?? "{}");
const health = json(200, '{"status":"ok"}');
/**
 * A 304 with the headers RFC 9110 §15.4.5 asks it to repeat from its 200, as the server's 304 must
 * send them (its 200s carry Cache-Control: no-store, the client API's a Vary too), and no more.
 */
const notModifiedReply = (etag: string, more: Record<string, string> = {}): Reply => ({
  status: 304,
  body: Buffer.alloc(0),
  headers: { etag, "cache-control": "no-store", ...more },
});
let clientEtag = "";
let clientFeatures: Reply = json(200, "{}");
let clientFeaturesGzip: Reply = clientFeatures;
let notModified: Reply = json(304, "");
// The client API's payload grows with the features; bench.ts sets it again at each step. Like the
// server, it answers gzip (compressed once, the same bytes) to a client that accepts it.
function setClientFeatures(body: string, etag: string): void {
  clientEtag = etag;
  const plain = json(200, body);
  clientFeatures = { ...plain, headers: { ...plain.headers, etag, vary: "accept-encoding" } };
  const zipped = gzipSync(plain.body);
  clientFeaturesGzip =
    plain.body.length >= 1_024
      ? {
          status: 200,
          body: zipped,
          headers: { ...clientFeatures.headers, "content-encoding": "gzip", "content-length": String(zipped.length) },
        }
      : clientFeatures;
  notModified = notModifiedReply(etag, { vary: "accept-encoding" });
}
setClientFeatures(bodies.clientFeatures ?? "{}", bodies.clientEtag ?? '""');
// The frontend API's answer for one context; bench.ts sets it before the frontend scenario.
let frontend: Reply = json(200, bodies.frontend ?? '{"toggles":[]}');
const missing = json(404, '{"name":"NotFoundError"}');
// The repeated requests of the frontend scenario: a method and path, and either the ETag the server
// answered (a request that sends it back is a 304) or the body it answered (OFREP's single flag).
let poll: { method: string; path: string; etag?: string; body?: string } = { method: "", path: "", etag: "" };
let pollReply: Reply = json(304, "");

const server = createServer((req, res) => {
  const url = req.url ?? "/";
  let reply: Reply = missing;
  if (req.method === "GET" && url.endsWith("/variants")) reply = variants;
  else if (req.method === "GET" && url.endsWith("/change-requests/pending")) reply = pending;
  else if (req.method === "POST" && url === "/api/admin/banners") reply = banner;
  else if (url === "/health") reply = health;
  else if (req.method === "GET" && url.startsWith("/api/client/features"))
    reply =
      req.headers["if-none-match"] === clientEtag
        ? notModified
        : /\bgzip\b/.test(req.headers["accept-encoding"] ?? "")
          ? clientFeaturesGzip
          : clientFeatures;
  else if (req.method === poll.method && url === poll.path && (poll.body !== undefined || req.headers["if-none-match"] === poll.etag))
    reply = pollReply;
  else if (req.method === "GET" && url.startsWith("/api/frontend")) reply = frontend;
  if (req.method === "PUT" && url === "/bench/client-features") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { body, etag } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { body: string; etag: string };
      setClientFeatures(body, etag);
      res.writeHead(204);
      res.end();
    });
    return;
  }
  if (req.method === "PUT" && url === "/bench/poll") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      poll = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof poll;
      pollReply = poll.body !== undefined ? json(200, poll.body) : notModifiedReply(poll.etag ?? "");
      res.writeHead(204);
      res.end();
    });
    return;
  }
  if (req.method === "PUT" && url === "/bench/frontend") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      frontend = json(200, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(204);
      res.end();
    });
    return;
  }
  // The body is read to the end, as a real handler would.
  req.resume();
  req.on("end", () => {
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
