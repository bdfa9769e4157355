/**
 * A mail server URL holding a password (`smtp://user:pw@host`) is refused wherever it is given,
 * by every command that reads the settings, mailing or not: the password would sit in a config
 * file, a unit file or a shell profile in plain text, where a command that does not mail would
 * otherwise leave it unnoticed until one does.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ConfigValues, FieldName } from "./fields.js";

/** The refusal of a mail server URL holding a password, `source` naming what gave it. */
export function smtpPasswordRefusal(source: string): LmsExportError {
  return new LmsExportError(
    "bad-input",
    `the mail server URL (from ${source}) contains a password: remove it from the URL, put it alone in a file (chmod 600) and set LMS_SMTP_PASSWORD_FILE to its path`,
  );
}

/** Whether `text` parses as a URL with a password. */
function holdsPassword(text: string): boolean {
  const trimmed = text.trim();
  return URL.canParse(trimmed) && new URL(trimmed).password !== "";
}

/**
 * Contract: throws {@link smtpPasswordRefusal} for the first source whose mail server URL holds a
 * password, even one a higher source overrides: the password is in it all the same.
 */
export function refuseSmtpPasswords(
  sources: readonly { values: ConfigValues; source: (field: FieldName) => string }[],
): void {
  for (const { values, source } of sources) {
    if (values.smtpUrl !== undefined && holdsPassword(values.smtpUrl)) {
      throw smtpPasswordRefusal(source("smtpUrl"));
    }
  }
}
