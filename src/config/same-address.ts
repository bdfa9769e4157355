/**
 * Whether two portal base URLs are one address as the client uses it: the host's case and
 * trailing slashes do not count (the transport strips them).
 */
export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}

/** `url` as the client uses it, to compare or to key by (e.g. the remembered Authorization forms). */
export function addressKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "")}${parsed.search}`;
  } catch {
    return url.replace(/\/+$/, "");
  }
}
