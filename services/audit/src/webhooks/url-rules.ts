import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The ranges WEBHOOK_ALLOWED_CIDRS lets webhooks reach although they are not public. */
export type AllowedRanges = ReadonlyArray<[Address, number]>;

/**
 * WEBHOOK_ALLOWED_CIDRS parsed: each entry a CIDR or a single address (as request-filtering-agent
 * reads them). Throws on an entry that is neither, naming it: a typo must stop the start, not
 * silently leave the receiver unreachable.
 */
export function allowedRangesOf(entries: readonly string[]): AllowedRanges {
  return entries.map((entry) => {
    if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
    if (isIP(entry) !== 0) {
      const address = ipaddr.parse(entry);
      return [address, address.kind() === "ipv4" ? 32 : 128];
    }
    throw new Error(`WEBHOOK_ALLOWED_CIDRS: "${entry}" is neither a CIDR nor an IP address`);
  });
}

const isAllowed = (address: Address, allowed: AllowedRanges) =>
  allowed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));

/**
 * Why a webhook's URL is refused, or undefined when it is acceptable: https only, no user name or
 * password, and no IP literal outside the public unicast range unless allowed. A host name is
 * checked where it matters, at each connection, at the address it resolves to (the sender's agent),
 * so that a name which resolves there later is refused too (docs/decisions.md, "Audit trail and
 * webhooks").
 */
export function webhookUrlProblem(text: string, allowed: AllowedRanges): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be an https URL";
  }
  if (url.protocol !== "https:") return "must be an https URL";
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) === 0) return undefined;
  const address = ipaddr.parse(host);
  const range = address.range();
  if (range === "unicast" || isAllowed(address, allowed)) return undefined;
  return `names an address that is not public (${range}); WEBHOOK_ALLOWED_CIDRS does not allow it`;
}
