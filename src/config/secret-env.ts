/**
 * A key or password given in an environment variable (LMS_API_KEY, LMS_SMTP_PASSWORD,
 * PGPASSWORD) holds one line, as its file would. `export LMS_SMTP_PASSWORD="$(pass show smtp)"`
 * takes every line a password manager prints after the password too; such a value is never
 * accepted by the server, and a server that echoes what it got breaks it at the line (SMTP
 * answers are lines), so no redaction of the whole value could find it in the answer.
 */
import { LmsExportError } from "../errors/lms-export-error.js";

/**
 * Contract: answers `value` when it holds no line break (CR or LF); otherwise throws a one-line
 * bad-input naming `name` and what it must hold, never the value. `fileSetting` is the variable
 * naming a file the secret may be put in instead.
 */
export function oneLineSecret(
  value: string,
  name: string,
  what: string,
  fileSetting: string,
): string {
  if (!/[\r\n]/.test(value)) return value;
  throw new LmsExportError(
    "bad-input",
    `${name} holds more than one line: it must contain only the ${what}; set it to that line alone, or put the ${what} alone in a file and set ${fileSetting} to its path`,
  );
}
