import { isIPv4, isIPv6 } from "node:net";

/**
 * The network a client address is taken as: an IPv6 address by its first `ipv6PrefixLength` bits,
 * because one subscriber is usually given a whole /64 and can send from any address in it (the
 * gateway's rate limit per client address, docs/security.md, "Abuse of the service"), an IPv4
 * address by its first `ipv4PrefixLength` bits (by itself at 32, the default); an IPv4-mapped IPv6
 * address (`::ffff:a.b.c.d`, how a dual-stack socket sees an IPv4 client) as the IPv4 address.
 * Anything else (no address known) is taken as it is.
 */
export function clientAddressKey(address: string, ipv6PrefixLength: number, ipv4PrefixLength = 32): string {
  if (isIPv4(address)) return ipv4Network(address.split(".").map(Number), ipv4PrefixLength);
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (isIPv4Mapped(groups)) {
    const [high = 0, low = 0] = groups.slice(6);
    return ipv4Network([high >> 8, high & 0xff, low >> 8, low & 0xff], ipv4PrefixLength);
  }
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

/** The IPv4 address's first `prefixLength` bits: the address itself at 32, else `a.b.c.0/24`. */
function ipv4Network(octets: number[], prefixLength: number): string {
  if (prefixLength >= 32) return octets.join(".");
  const network = octets.map((octet, index) => {
    const hostBits = Math.min(8, Math.max(0, (index + 1) * 8 - prefixLength));
    return octet & (0xff << hostBits) & 0xff;
  });
  return `${network.join(".")}/${prefixLength}`;
}
