import { createHmac, timingSafeEqual } from "node:crypto";

const PURPOSE = "ofrep-event-stream:";

const mac = (secret: string, tokenId: number) => createHmac("sha256", secret).update(`${PURPOSE}${tokenId}`).digest("base64url");

/**
 * The part of an OFREP event stream's URL that stands for the token (docs/sdk-protocols.md#ofrep):
 * its id and a MAC under the server's session secret. It opens that token's change notifications
 * and nothing else, so no token travels in a URL.
 */
export function ofrepStreamTicket(secret: string, tokenId: number): string {
  return `${tokenId}.${mac(secret, tokenId)}`;
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
