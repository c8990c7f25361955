import { lookup } from "node:dns";
import { lookup as lookupAll } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { ValidationError } from "../errors/domain-error.ts";

/** Whether integrations may reach loopback and private addresses; the app reads it from WEBHOOK_ALLOW_PRIVATE_TARGETS. */
export interface TargetPolicy {
  allowPrivateTargets: boolean;
}

// docs/webhooks.md#private-addresses: BlockList also matches their IPv4-mapped IPv6 forms (::ffff:10.0.0.5).
const INTERNAL = new BlockList();
INTERNAL.addSubnet("0.0.0.0", 8, "ipv4");
INTERNAL.addSubnet("10.0.0.0", 8, "ipv4");
INTERNAL.addSubnet("127.0.0.0", 8, "ipv4");
INTERNAL.addSubnet("169.254.0.0", 16, "ipv4");
INTERNAL.addSubnet("172.16.0.0", 12, "ipv4");
INTERNAL.addSubnet("192.168.0.0", 16, "ipv4");
INTERNAL.addAddress("::", "ipv6");
INTERNAL.addAddress("::1", "ipv6");
INTERNAL.addSubnet("fc00::", 7, "ipv6");
INTERNAL.addSubnet("fe80::", 10, "ipv6");

function isInternal(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && INTERNAL.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** A delivery refused because its host is, or resolves to, an internal address. */
export class TargetNotAllowedError extends Error {
  constructor() {
    super("The target address is not allowed.");
    this.name = "TargetNotAllowedError";
  }
}

/** The URL's host, an IPv6 literal without its brackets. */
function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Refuses to save an integration whose URL's host is an internal address or resolves to one
 * (docs/webhooks.md#private-addresses). A host that does not resolve (yet) is let through: each
 * delivery checks again as it connects.
 */
export async function assertAllowedTarget(url: string, targets: TargetPolicy): Promise<void> {
  // A URL that does not parse is the integration's own validation's to refuse.
  if (targets.allowPrivateTargets || !URL.canParse(url)) return;
  const host = hostOf(url);
  const addresses = isIP(host) ? [host] : (await lookupAll(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.some(isInternal)) {
    const message =
      "must not be on a loopback, private, link-local or unspecified address, nor on a host that resolves to one (an operator may allow them with WEBHOOK_ALLOW_PRIVATE_TARGETS)";
    throw new ValidationError(`Invalid integration: parameters.url ${message}.`, [{ path: "parameters.url", message }]);
  }
}

/** An IP literal is connected to without a lookup, so a delivery checks it before it sends. */
export function assertLiteralTargetAllowed(url: string): void {
  if (isInternal(hostOf(url))) throw new TargetNotAllowedError();
}

/**
 * The sockets' lookup for deliveries: it fails on an internal address, so what is checked is the
 * address connected to, not an earlier answer that a rebinding DNS server may change.
 */
export const checkedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, options, (error, address, family) => {
    const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
    if (!error && addresses.some(isInternal)) callback(new TargetNotAllowedError(), address, family);
    else callback(error, address, family);
  });
};
