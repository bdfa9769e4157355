/**
 * A redirect from the portal. It is never followed: the token travels in a header that a client
 * following the redirect would send to whatever host the portal names, and a portal that moved
 * should be configured at its new address. The message names the host it points to and nothing
 * more, because a redirect's path or query can carry a secret.
 */
import { HttpError, type RequestContext } from "./errors.js";
import type { HttpAnswer } from "./http.js";

export function isRedirect(status: number): boolean {
  return status >= 300 && status <= 399 && status !== 304;
}

/** The `HttpError` a redirect answer amounts to; `base` is the configured base URL. */
export function redirectError(answer: HttpAnswer, context: RequestContext, base: URL): HttpError {
  const raw = answer.headers.location;
  const location = Array.isArray(raw) ? raw[0] : raw;
  let target: URL | undefined;
  try {
    target = location === undefined ? undefined : new URL(location, base);
  } catch {
    target = undefined;
  }
  let where: string;
  if (target === undefined) where = "a redirect without a usable Location";
  else if (target.host === base.host) where = `a redirect to ${target.host} (the same host)`;
  else where = `a redirect to ${target.host} (another host)`;
  return new HttpError(
    context,
    `the portal answered with ${where}, which is not followed: check the base URL (its scheme, host and path)`,
    { httpStatus: answer.status },
  );
}
