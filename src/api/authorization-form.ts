/**
 * The form of the `Authorization` header: the raw token, or `Bearer <token>`.
 *
 * The spec describes "the token" in a header named Authorization and shows no prefix; portals
 * built on common frameworks want `Bearer`. Unless a scheme is configured, the client starts with
 * the raw token (or the form the portal accepted last time, remembered-form.ts) and, when a token
 * is refused before it was ever accepted (a refusal right after it was issued cannot be expiry),
 * sends the same token once in the other form. The first form the portal accepts is kept for the
 * rest of the run, and remembered. A configured scheme is sent as it is.
 */
import type { Logger } from "../log/logger.js";
import type { FormMemory } from "./remembered-form.js";

const BEARER = "Bearer";

/** What to do about a refused token. */
export type RefusalAction = "resend" | "renew";

export class AuthorizationForm {
  readonly #forced: boolean;
  readonly #logger: Logger;
  readonly #initial: string;
  readonly #memory: FormMemory | undefined;
  #scheme: string;
  #confirmed = false;
  /** The token last tried in both forms: a second refusal of it means the token is bad. */
  #switchedFor: string | undefined;

  /**
   * `scheme` undefined: detect the form, starting with the one `memory` recalls; otherwise always
   * send `scheme` ("" = raw token).
   */
  constructor(scheme: string | undefined, logger: Logger, memory?: FormMemory) {
    this.#forced = scheme !== undefined;
    this.#memory = this.#forced ? undefined : memory;
    this.#initial = scheme?.trim() ?? this.#memory?.recall() ?? "";
    this.#scheme = this.#initial;
    this.#logger = logger;
  }

  /** The scheme requests are sent with now ("" for the raw token). */
  get scheme(): string {
    return this.#scheme;
  }

  /** The portal accepted a request sent with `scheme`: that form is kept from now on. */
  accepted(scheme: string): void {
    if (this.#confirmed || this.#forced || scheme !== this.#scheme) return;
    this.#confirmed = true;
    if (scheme === this.#initial) return;
    this.#memory?.remember(scheme);
    this.#logger.info(
      `${formLearned(this.#initial, scheme)}: sending it that way from now on (${FORM_SETTING})`,
      { refusedScheme: this.#initial, acceptedScheme: scheme },
    );
  }

  /**
   * A request sent with `scheme` had `token` refused; `neverAccepted` says whether the portal
   * ever took that token. Answers "resend" when the request should go again with the same token
   * (now in the current form), "renew" when a new token is needed.
   */
  refused(token: string, scheme: string, neverAccepted: boolean): RefusalAction {
    if (this.#forced) return "renew";
    // Sent before another request switched the form: try the form in use now.
    if (scheme !== this.#scheme) return "resend";
    if (this.#confirmed || !neverAccepted || this.#switchedFor === token) return "renew";
    this.#switchedFor = token;
    this.#scheme = this.#scheme === "" ? BEARER : "";
    return "resend";
  }
}

function describe(scheme: string): string {
  return scheme === "" ? "without a prefix" : `with the prefix "${scheme}"`;
}

/** Where a user fixes the form instead of letting the client find it. */
export const FORM_SETTING =
  "--auth-scheme, LMS_AUTH_SCHEME or authScheme in the config file sets it";

/** What the client learned: the portal refused the token sent `refused`, took it `accepted`. */
export function formLearned(refused: string, accepted: string): string {
  return `the portal refused the token ${describe(refused)} and accepts it ${describe(accepted)}`;
}
