import { createHmac, timingSafeEqual } from "node:crypto";

const PURPOSE = "ofrep-event-stream:";

/** Tickets made, by secret (one per server; the tests run several) and token id; past this many a secret's start over. */
const tickets = new Map<string, Map<number, string>>();
const MAX_TICKETS = 10_000;

const mac = (secret: string, tokenId: number) => createHmac("sha256", secret).update(`${PURPOSE}${tokenId}`).digest("base64url");

/**
 * The part of an OFREP event stream's URL that stands for the token (docs/ofrep.md#ofrep):
 * its id and a MAC under the server's session secret. It opens that token's change notifications
 * and nothing else, so no token travels in a URL.
 */
export function ofrepStreamTicket(secret: string, tokenId: number): string {
  // Every bulk poll names its token's ticket: the MAC is made once per token (made per poll, it was 7% of a bulk 304's CPU).
  let bySecret = tickets.get(secret);
  if (!bySecret) tickets.set(secret, (bySecret = new Map()));
  let ticket = bySecret.get(tokenId);
  if (ticket === undefined) {
    if (bySecret.size >= MAX_TICKETS) bySecret.clear();
    bySecret.set(tokenId, (ticket = `${tokenId}.${mac(secret, tokenId)}`));
  }
  return ticket;
}

/** The token id a ticket stands for, or null when it was not made with this secret. */
export function tokenIdOfTicket(secret: string, ticket: string): number | null {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
  if (!match) return null;
  const tokenId = Number(match[1]);
  const expected = Buffer.from(mac(secret, tokenId));
  const given = Buffer.from(match[2] as string);
  return expected.length === given.length && timingSafeEqual(expected, given) ? tokenId : null;
}
