/**
 * The command that sends again what a run's mail did not get to: `report` with the names of the
 * reports concerned, every option of the user's command line that `report` takes (so the files
 * are the same: --out, --config, --param, --db, --catalog, ...), and the mail options that pick
 * the recipients. It is `report` even after `run`: the data is extracted already, and another
 * extract could change it; the options only `run` has are left out. Words are quoted for a POSIX
 * shell. No option of `report` holds a secret (passwords and keys come from files or the
 * environment); a hidden one, kept only to be refused, or one named like a secret is never said.
 */
import { Buffer } from "node:buffer";
import yargs from "yargs";
import { type MailTarget, targetText } from "../mail/mail-only.js";
import type { MailSummary, ReportToMail } from "../mail/mail-reports.js";
import { shellWord } from "../text/shell-word.js";
import { REPORT_NAMES_KEY, reportBuilder } from "./report-command-options.js";

/** The options that say whom to mail: replaced, never repeated. */
const MAIL_KEYS = new Set(["mail", "mail-to", "mail-only"]);

/**
 * The most bytes one value of --mail-only or --mail-to holds. Linux refuses to start a program
 * given an argument longer than 128 KiB (MAX_ARG_STRLEN: "Argument list too long"), which a list
 * of a few thousand managers passes; a longer list is said as several options, each repeatable.
 */
const LIST_BYTES = 100_000;

/** What yargs answers about the options it was given (`Argv.getOptions()`, left out of its types). */
interface DeclaredOptions {
  key: Record<string, unknown>;
  default: Record<string, unknown>;
  hiddenOptions: string[];
}

/** The options of `report` that a command line repeats, in their order, and their defaults. */
interface Repeated {
  keys: string[];
  defaults: Record<string, unknown>;
}

let repeated: Repeated | undefined;

/** A name whose value could be a secret; a file's path (…-file) is not one. */
function secretName(name: string): boolean {
  return /password|secret|token|api-key/.test(name) && !name.endsWith("-file");
}

/** `report`'s options as its own definition declares them, read once. */
function reportOptions(): Repeated {
  if (repeated !== undefined) return repeated;
  const declared = (
    reportBuilder(yargs([])) as unknown as { getOptions(): DeclaredOptions }
  ).getOptions();
  const left = new Set([...declared.hiddenOptions, REPORT_NAMES_KEY, "help", "version"]);
  const keys = Object.keys(declared.key).filter(
    (key) => !left.has(key) && !MAIL_KEYS.has(key) && !secretName(key),
  );
  repeated = { keys, defaults: declared.default };
  return repeated;
}

/** The words, not quoted yet, giving option `name` the parsed `value` again. */
function optionWords(name: string, value: unknown): string[] {
  if (typeof value === "boolean") return [value ? `--${name}` : `--no-${name}`];
  const values = Array.isArray(value) ? value : [value];
  // A value starting with "-" would be read as an option of its own: it is joined with "=".
  return values.flatMap((v) => {
    const text = String(v);
    return text.startsWith("-") ? [`--${name}=${text}`] : [`--${name}`, text];
  });
}

/**
 * `lms-export report NAMES ...` with every option of `argv` (a parsed command line, of `report`
 * or of `run`) that `report` takes and that differs from its default, except the mail options,
 * and then `mail`. Every word is quoted here, and only here: a word quoted twice reads back
 * with its quotes in it, an address no longer.
 */
export function reportCommandLine(
  argv: Readonly<Record<string, unknown>>,
  names: readonly string[],
  mail: readonly string[],
): string {
  const { keys, defaults } = reportOptions();
  const options = keys.flatMap((key) => {
    const value = argv[key];
    return value === undefined || value === defaults[key] ? [] : optionWords(key, value);
  });
  return ["lms-export", "report", ...names, ...options, ...mail].map(shellWord).join(" ");
}

/**
 * The mail options of `argv` as given, as words not quoted yet: --mail-to's, or --mail with its
 * --mail-only if any.
 */
export function givenMailWords(argv: Readonly<Record<string, unknown>>): string[] {
  const list = (key: string) => [argv[key]].flat().map(String).join(",");
  if (argv["mail-to"] !== undefined) return optionWords("mail-to", list("mail-to"));
  const only = argv["mail-only"];
  return ["--mail", ...(only === undefined ? [] : optionWords("mail-only", list("mail-only")))];
}

/**
 * The mail options (words not quoted yet) sending a report's messages again to `targets` alone:
 * --mail-only among the messages --mail sends (an address with two messages of the report named
 * with the one it missed), or --mail-to's whole report when the command line mailed it that way.
 */
export function resendMailWords(
  argv: Readonly<Record<string, unknown>>,
  targets: readonly MailTarget[],
): string[] {
  if (argv["mail-to"] !== undefined) {
    return optionWords("mail-to", listValues([...new Set(targets.map((t) => t.address))]));
  }
  return ["--mail", ...optionWords("mail-only", listValues([...new Set(targets.map(targetText))]))];
}

/** `items` joined by commas into values of at most LIST_BYTES each (one, for a short list). */
function listValues(items: readonly string[]): string[] {
  const values: string[] = [];
  let value = "";
  for (const item of items) {
    const longer = value === "" ? item : `${value},${item}`;
    if (value !== "" && Buffer.byteLength(longer) > LIST_BYTES) {
      values.push(value);
      value = item;
    } else {
      value = longer;
    }
  }
  return value === "" ? values : [...values, value];
}

/**
 * The commands sending each report of `resend` again to its recipients alone, one per report
 * (by the name `nameOf` says it was given), joined by "and"; undefined when there are none.
 */
export function resendCommands(
  resend: MailSummary["resend"],
  nameOf: (report: ReportToMail) => string,
  argv: Readonly<Record<string, unknown>>,
): string | undefined {
  if (resend.length === 0) return undefined;
  return resend
    .map(({ report, targets }) =>
      reportCommandLine(argv, [nameOf(report)], resendMailWords(argv, targets)),
    )
    .join(" and ");
}
