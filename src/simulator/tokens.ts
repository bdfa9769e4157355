/**
 * Access tokens issued by POST /token.
 *
 * The spec leaves the header format open: the `Authorization` header is accepted with the raw
 * token and with `Bearer <token>`, or with `Bearer <token>` only when the dialect requires it.
 * A token stops working when its lifetime ends or, when
 * `tokenMaxRequests` is set, after it served that many requests; either way the answer is 401
 * and the client is expected to get a new token.
 */
import { randomBytes } from "node:crypto";
import { RequestError } from "./request-error.js";

interface Issued {
  expiresAt: number;
  served: number;
}

export class TokenStore {
  private readonly tokens = new Map<string, Issued>();
  private readonly ttlMs: number;

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  /** A new random token, valid for the configured lifetime. */
  issue(): string {
    const now = Date.now();
    if (this.tokens.size > 10_000) {
      for (const [token, issued] of this.tokens)
        if (issued.expiresAt <= now) this.tokens.delete(token);
    }
    const token = randomBytes(24).toString("base64url");
    this.tokens.set(token, { expiresAt: now + this.ttlMs, served: 0 });
    return token;
  }

  /** Accepts the header of one request or throws a 401; counts the request against the token. */
  admit(header: string | undefined, maxRequests: number, requireBearer = false): void {
    if (!header)
      throw new RequestError(401, "missing token: get one from /token, send it in Authorization");
    const bearer = /^bearer\s+/i.test(header);
    if (requireBearer && !bearer) {
      throw new RequestError(401, "Unauthorized: send Authorization: Bearer <token>");
    }
    const token = header.replace(/^bearer\s+/i, "").trim();
    const issued = this.tokens.get(token);
    if (!issued) throw new RequestError(401, "invalid token");
    if (issued.expiresAt <= Date.now()) throw new RequestError(401, "token expired");
    if (maxRequests > 0 && issued.served >= maxRequests)
      throw new RequestError(401, "token expired");
    issued.served++;
  }
}
