import type { IncomingMessage } from "node:http";

const normalise = (ip: string) => (ip.startsWith("::ffff:") ? ip.slice(7) : ip);

/**
 * The client's address: the socket's, unless the socket is one of the trusted proxies, in which
 * case the nearest X-Forwarded-For entry that is not itself a trusted proxy. Trusting the header
 * from anyone would let every client choose its own address, and so reset its rate limits.
 */
export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const socketIp = normalise(req.socket.remoteAddress ?? "");
  if (!trustedProxies.has(socketIp)) return socketIp;
  const header = req.headers["x-forwarded-for"];
  if (header === undefined) return socketIp;
  const forwarded = String(header)
    .split(",")
    .map((s) => normalise(s.trim()))
    .filter(Boolean);
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = forwarded[i] as string;
    if (!trustedProxies.has(hop)) return hop;
  }
  return socketIp;
}
