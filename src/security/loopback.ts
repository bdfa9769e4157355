/**
 * Whether a URL host names this machine. Plain http:// is only acceptable when the traffic never
 * leaves the machine, so only hosts that cannot resolve elsewhere count: the literal name
 * "localhost", 127.0.0.0/8 and ::1 (also written as the IPv4-mapped ::ffff:127.x.y.z).
 */
import { isIPv4, isIPv6 } from "node:net";

/** `hostname` as WHATWG URL gives it: lower case, IPv6 in brackets, IPv4 normalised. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost") return true;
  if (isIPv4(host)) return host.startsWith("127.");
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (!isIPv6(bare)) return false;
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  // WHATWG URL rewrites ::ffff:127.0.0.1 as ::ffff:7f00:1; the high byte 7f is 127.
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(bare);
  if (mapped?.[1] !== undefined) return Number.parseInt(mapped[1], 16) >> 8 === 127;
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  return dotted?.[1]?.startsWith("127.") === true;
}
