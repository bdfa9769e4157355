/**
 * A refused key, said with where the key was read from. The client's message can only say "check
 * the API key" (it never sees the settings); with several portals, key files and LMS_API_KEY, the
 * user needs the real place.
 */
import { AuthError, KEY_REFUSED_HINT } from "../api/errors.js";
import { LmsExportError } from "../errors/lms-export-error.js";

/**
 * `error` with the key's source named when it is a refused key (the client's `AuthError` or a
 * stage's "auth-refused"), else `error` itself.
 */
export function namingKeySource(error: unknown, keySource: string): unknown {
  const refused =
    error instanceof AuthError ||
    (error instanceof LmsExportError && error.code === "auth-refused");
  if (!refused) return error;
  const named = `check the key in ${keySource}`;
  const message = error.message.includes(KEY_REFUSED_HINT)
    ? error.message.replace(KEY_REFUSED_HINT, named)
    : `${error.message} (the key was read from ${keySource})`;
  return new LmsExportError("auth-refused", message, { cause: error });
}
