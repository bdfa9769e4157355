/**
 * A command run without --portal whose config file lists portals but gives no top-level address
 * (or whose top-level database was never made): the user almost surely meant one of those
 * portals. Advice about LMS_BASE_URL, the API key or an extract first cannot help then, as the
 * portals' addresses, keys and databases are only used with --portal; so the message names the
 * portals and the flag that picks one. One place, so check, extract, run and report say it alike.
 */
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";
import { pathWord } from "../text/shell-word.js";
import type { ResolvedConfig } from "./resolve.js";

/** The settings that say whether a portal was chosen and which the config file lists. */
export type PortalChoiceSettings = Pick<ResolvedConfig, "portal" | "portals" | "configFile">;

/** What the refusal says is missing, and whether the command also takes --all-portals. */
export interface PortalChoiceProblem {
  /** What is missing at the top level, e.g. "no portal address". */
  readonly missing: string;
  /** The exit code's kind: that of the failure it replaces. */
  readonly code: FailureCode;
  /** Whether the command takes --all-portals (run does not). */
  readonly allPortals: boolean;
}

/**
 * The error naming the config file's portals and --portal, when no portal was chosen and the
 * file lists some; undefined otherwise (the caller's own message applies).
 */
export function portalNotChosen(
  config: PortalChoiceSettings,
  problem: PortalChoiceProblem,
): LmsExportError | undefined {
  if (config.portal !== undefined || config.portals.length === 0) return undefined;
  const file =
    config.configFile === undefined ? "the config file" : `the config file ${config.configFile}`;
  const pick = problem.allPortals ? "pass --portal NAME or --all-portals" : "pass --portal NAME";
  return new LmsExportError(
    problem.code,
    `${problem.missing}, and ${file} lists portals ${config.portals.join(", ")}: ${pick}`,
  );
}

/**
 * The refusal of a command that takes no --portal (roster import, sql) whose top-level database
 * (`shown`, as the user would find it) does not exist while the config file lists portals: their
 * databases are the ones extracted, so --db names the one meant, and the message gives each
 * portal's (`databases`, paths as the user would type them); undefined when the file lists none.
 */
export function portalDatabaseNotGiven(
  config: Pick<ResolvedConfig, "portals" | "configFile">,
  shown: string,
  databases: readonly { readonly name: string; readonly db: string }[] = [],
): LmsExportError | undefined {
  if (config.portals.length === 0) return undefined;
  const file = config.configFile ?? "the config file";
  const each = databases.map(({ name, db }) => `--db ${pathWord(db)} for ${name}`).join(", ");
  return new LmsExportError(
    "bad-input",
    `the database ${shown} does not exist, and ${file} lists portals ${config.portals.join(", ")}: give the portal's database with --db FILE${each === "" ? "" : `: ${each}`}`,
  );
}
