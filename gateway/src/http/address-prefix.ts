import { isIPv4, isIPv6 } from "node:net";

/**
 * What the rate limit per client address counts a client as (docs/security.md, "Abuse of the
 * service"): an IPv4 address by itself; an IPv6 address by its network, the first
 * `ipv6PrefixLength` bits, because one subscriber is usually given a whole /64 and can send from
 * any address in it; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, how a dual-stack socket sees an
 * IPv4 client) as the IPv4 address. Anything else (no address known) is counted as it is.
 */
export function clientAddressKey(address: string, ipv6PrefixLength: number): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (isIPv4Mapped(groups)) return ipv4Of(groups[6] ?? 0, groups[7] ?? 0);
  const network = groups.map((group, index) => {
    const hostBits = Math.min(16, Math.max(0, (index + 1) * 16 - ipv6PrefixLength));
    return group & (0xffff << hostBits) & 0xffff;
  });
  return `${network.map((group) => group.toString(16)).join(":")}/${ipv6PrefixLength}`;
}

/**
 * The eight 16-bit groups of an IPv6 address, with `::` expanded, a dotted IPv4 tail read and a
 * zone (`%eth0`) left out; undefined for anything that is no IPv6 address.
 */
export function ipv6Groups(address: string): number[] | undefined {
  const [withoutZone = ""] = address.split("%");
  if (!isIPv6(withoutZone)) return undefined;
  let text = withoutZone.toLowerCase();
  const dottedTail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dottedTail) {
    const [a, b, c, d] = dottedTail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dottedTail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groupsOf = (part: string) =>
    part === "" ? [] : part.split(":").map((hex) => Number.parseInt(hex, 16));
  const [head = "", tail] = text.split("::");
  if (tail === undefined) return groupsOf(head);
  const [front, back] = [groupsOf(head), groupsOf(tail)];
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** `::ffff:0:0/96`: 80 zero bits, then 16 one bits, then the IPv4 address. */
function isIPv4Mapped(groups: number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}
