/**
 * What a failure of a request sent with a token says about the token: the request goes again at
 * once (the other header form, a renewed token), or it is the request's own failure (retried or
 * thrown by the retry rules), or the tokens themselves are hopeless.
 */
import type { TokenManager } from "./auth.js";
import type { AuthorizationForm } from "./authorization-form.js";
import {
  type ApiError,
  AuthError,
  isPermissionRefusal,
  isTokenRejection,
  isUnexplainedFailure,
  NotFoundError,
  permissionDenied,
  type RequestContext,
} from "./errors.js";

/**
 * Refusals of tokens that were never accepted by anyone, after which a call gives up: the
 * portal then refuses our tokens outright (typically a wrong `authScheme`), it is not expiry.
 * Checked lazily, so acceptances that arrive after a refusal still count, and a token that other
 * requests still carry is not judged yet (a portal may serve one request per token).
 */
const MAX_FRUITLESS_TOKENS = 4;
/**
 * Renewals one call may go through in all. Under heavy concurrency with short-lived tokens, other
 * calls can use up several tokens before this one gets through; this only stops a loop.
 */
const MAX_RENEWALS_PER_CALL = 100;

/** The tokens one call has seen refused, and whether it already tried a fresh one. */
export interface TokenTries {
  readonly refused: string[];
  /**
   * The refused tokens seen to have served some request: kept here, as the manager remembers
   * only its recent tokens and a portal whose tokens serve one request each goes through many.
   */
  readonly served: Set<string>;
  freshToken: boolean;
}

/** The request that failed: with which token and header form. */
export interface SentWithToken {
  readonly token: string;
  readonly scheme: string;
  readonly context: RequestContext;
  readonly signal: AbortSignal | undefined;
}

/** The client's token state, and how to record that the portal accepted a token. */
export interface TokenParts {
  readonly tokens: TokenManager;
  readonly form: AuthorizationForm;
  served(token: string, scheme: string): void;
}

/**
 * "again" when the request is to be sent again at once, "retry" when it is the request's failure.
 * Throws when the tokens themselves are hopeless or the key may not do this.
 */
export async function tokenTrouble(
  error: ApiError,
  sent: SentWithToken,
  tries: TokenTries,
  parts: TokenParts,
): Promise<"again" | "retry"> {
  const { token, scheme, context, signal } = sent;
  const { tokens, form } = parts;
  if (error instanceof NotFoundError) parts.served(token, scheme);
  if (isTokenRejection(error)) {
    // A token refused before it ever served may want the other header form (same token).
    const neverServed = !tokens.hasServed(token);
    if (form.refused(token, scheme, neverServed) === "resend") return "again";
    tries.refused.push(token);
    const { refused } = tries;
    for (const t of refused) if (tokens.hasServed(t)) tries.served.add(t);
    const fruitless = refused.filter(
      (t) => !tries.served.has(t) && !tokens.mayStillServe(t),
    ).length;
    if (fruitless > MAX_FRUITLESS_TOKENS) {
      throw new AuthError(
        context,
        `the portal refused ${refused.length} access tokens it had just issued; check the token prefix setting (--auth-scheme, LMS_AUTH_SCHEME or authScheme in the config file: the prefix of the Authorization header)`,
        { httpStatus: error.httpStatus ?? 401, cause: error },
      );
    }
    if (refused.length > MAX_RENEWALS_PER_CALL) {
      // Tokens that served others, yet never this request: they last too few requests for the
      // requests under way to share them.
      throw new AuthError(
        context,
        `the portal refused ${refused.length} access tokens for this request, each having served other requests: its tokens last very few requests; run with a lower --concurrency (e.g. 4, or 1)`,
        { httpStatus: error.httpStatus ?? 401, cause: error },
      );
    }
    // A refused token is not a failed attempt: the request is sent again with the next token.
    // Writes are safe to resend here: the portal refused them before doing anything.
    await tokens.renew(token, signal, true);
    return "again";
  }
  const permission = isPermissionRefusal(error);
  if (permission || isUnexplainedFailure(error)) {
    // One fresh token per call: a 403 or a failure that says nothing may come from a token the
    // portal stopped honouring without saying so.
    if (tries.freshToken) {
      if (permission) throw permissionDenied(context, error);
    } else {
      tries.freshToken = true;
      await tokens.renew(token, signal);
      if (permission) return "again";
    }
  }
  return "retry";
}
