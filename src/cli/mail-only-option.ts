/**
 * --mail-only: sending again only what a run could not deliver. A split report's re-run with
 * --mail sends every manager their share again, and --mail-to sends the whole report (everyone's
 * rows) to the address named; --mail-only sends each named address exactly its own messages of
 * the full run (or the one named, ADDRESS:share or ADDRESS:unassigned), and no one else anything.
 * A failed run names the command that does it (resend-command.ts).
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { type MailTarget, parseMailTargets } from "../mail/mail-only.js";

/**
 * The items of --mail-only, normalised; undefined without it. Contract: a bad-input error
 * when it is given without --mail or with --mail-to, or names something not an address. Shared by
 * the command and by `schedule`'s start checks, so both refuse the same lines.
 */
export function mailOnlyTargets(args: Readonly<Record<string, unknown>>): MailTarget[] | undefined {
  const given = args.mailOnly ?? args["mail-only"];
  if (given === undefined) return undefined;
  if ((args.mailTo ?? args["mail-to"]) !== undefined) {
    throw new LmsExportError(
      "bad-input",
      "--mail-only does not go with --mail-to: --mail-to sends each report whole to its addresses, --mail-only (with --mail) sends named recipients only their own messages; give one of them",
    );
  }
  if (args.mail !== true) {
    throw new LmsExportError(
      "bad-input",
      "--mail-only needs --mail: it picks, among the messages --mail sends, those to the addresses it names",
    );
  }
  const values = Array.isArray(given) ? given.map(String) : String(given);
  return parseMailTargets(values, "--mail-only");
}
