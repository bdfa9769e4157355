/**
 * The one gate a base URL passes before any request carries the API key to it.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { quotedUnlessSecret, shownUnlessSecret } from "../text/secret-like.js";
import { isLoopbackHost } from "./loopback.js";

/**
 * Where the API key belongs, for the messages that say to take it out of the URL. A portal of the
 * config file gives its own (its entry's key file), as these never apply to it.
 */
export const KEY_PLACES = "in a file (--api-key-file FILE or LMS_API_KEY_FILE) or in LMS_API_KEY";

/**
 * Parses and checks the portal's base URL.
 *
 * Contract: answers the parsed URL when it is https://, or http:// to a loopback host
 * (127.0.0.0/8, ::1, localhost), or http:// anywhere when `allowHttp` is true. Throws a one-line
 * bad-input otherwise, and for any other scheme, a URL carrying a user name or password, or one
 * with a query string or fragment (the API's paths are added to the base URL, which has nowhere
 * to keep them; and `?apikey=…` would put the key where it is shown and logged). The message
 * names the URL with any credentials and query removed and says what to do. TLS verification is not
 * configurable anywhere: an https:// URL is always verified by the HTTP client.
 */
export function checkBaseUrl(url: string, allowHttp: boolean, keyPlace = KEY_PLACES): URL {
  const trimmed = url.trim();
  const parsed = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  if (parsed === undefined) {
    throw new LmsExportError(
      "bad-input",
      `the base URL ${unparsedText(trimmed)} is not a valid URL: give the full address, e.g. https://lms.example.com/api-v2`,
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new LmsExportError(
      "bad-input",
      `the base URL ${shownUrl(parsed)} contains a user name or password: remove them from the URL and give the API key ${keyPlace}`,
    );
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    throw new LmsExportError(
      "bad-input",
      `the base URL ${shownUrl(parsed)} has a query string or fragment (not shown): give the API's address alone, e.g. https://lms.example.com/api-v2, and the API key ${keyPlace}`,
    );
  }
  if (parsed.protocol === "https:") return parsed;
  if (parsed.protocol === "http:") {
    if (allowHttp || isLoopbackHost(parsed.hostname)) return parsed;
    throw new LmsExportError(
      "bad-input",
      `the base URL ${shownUrl(parsed)} is plain http: the API key and every record would cross the network unencrypted; use https://, or pass --allow-http (LMS_ALLOW_HTTP=1) if the network is trusted`,
    );
  }
  // `user:password@host` parses as the scheme "user", its password in the path: not shown.
  const shown = parsed.href.includes("@")
    ? "(not shown: it may hold a password)"
    : shownUrl(parsed);
  throw new LmsExportError(
    "bad-input",
    `the base URL ${shown} uses the ${parsed.protocol.replace(/:$/, "")} scheme: use an https:// address, e.g. https://lms.example.com/api-v2`,
  );
}

/** The URL as a string with any user name, password, query string and fragment removed. */
export function displayUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  copy.search = "";
  copy.hash = "";
  return copy.href;
}

/**
 * Text that does not parse as a URL, quoted, or not shown when it holds an `@`: where its
 * credentials end cannot be told, since a password written unencoded may hold `/`, `:` or `@`
 * itself (`https://u:p@ss/w@host` would show `ss/w@host` if cut at the first `@`).
 */
function unparsedText(text: string): string {
  return text.includes("@") ? "(not shown: it may hold a password)" : quotedUnlessSecret(text);
}

/** The URL as {@link displayUrl} gives it, a part that may be a secret (the key as a path) cut. */
function shownUrl(url: URL): string {
  return shownUnlessSecret(displayUrl(url));
}
