/**
 * What `check`'s probe learned about the portal's Authorization form, as a line of its own:
 * extract logs it, but check's client has no log, so a check that switched to `Bearer` and
 * remembered it said nothing of either.
 */
import { FORM_SETTING, formLearned } from "../api/authorization-form.js";
import { type Logger, silentLogger } from "../log/logger.js";

/** A client logger keeping only the learned form, and that form said for check's output. */
export function learnedForm(): { readonly logger: Logger; readonly text: string | undefined } {
  let text: string | undefined;
  const logger: Logger = {
    ...silentLogger,
    info(_message, fields) {
      const refused = fields?.refusedScheme;
      const accepted = fields?.acceptedScheme;
      if (typeof refused !== "string" || typeof accepted !== "string") return;
      text = `${formLearned(refused, accepted)}: remembered for the next runs (${FORM_SETTING})`;
    },
  };
  return {
    logger,
    get text() {
      return text;
    },
  };
}
