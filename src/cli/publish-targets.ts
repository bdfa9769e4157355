/**
 * The targets a `publish` names, checked before anything is opened (and by `schedule` when it
 * starts one): at least one, and no setting of a target that is not there, which would be
 * ignored, publishing somewhere other than the command line reads.
 */
import { LmsExportError } from "../errors/lms-export-error.js";

/** The publish flags that name targets and their settings, as yargs parses them. */
export interface PublishTargets {
  readonly lake?: unknown;
  readonly postgres?: unknown;
  readonly schema?: unknown;
  readonly postgresTimeout?: unknown;
  readonly snapshotDate?: unknown;
  readonly keep?: unknown;
}

/** The flags that set a target (with the value they take), and the flags that need each one. */
const SETTINGS_OF = {
  postgres: { flag: "--postgres URL", settings: ["schema", "postgresTimeout"] },
  lake: { flag: "--lake DIR", settings: ["snapshotDate", "keep"] },
} as const;

/** The flag of a setting as typed: `postgresTimeout` → `--postgres-timeout`. */
const flagOf = (setting: string) => `--${setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Throws a bad-input error for a publish without a target or with a setting of a missing one. */
export function checkPublishTargets(args: PublishTargets): void {
  if (args.lake === undefined && args.postgres === undefined) {
    throw new LmsExportError("bad-input", "name a target: --lake DIR or --postgres URL");
  }
  for (const [target, { flag, settings }] of Object.entries(SETTINGS_OF)) {
    if (args[target as keyof typeof SETTINGS_OF] !== undefined) continue;
    const given = settings.find((setting) => args[setting] !== undefined);
    if (given === undefined) continue;
    throw new LmsExportError(
      "bad-input",
      `${flagOf(given)} is for ${flag}: add it, or leave out ${flagOf(given)}`,
    );
  }
  // Given empty (`--snapshot-date "$DAY"` with the variable unset), it would publish as today,
  // replacing today's snapshot instead of adding the day meant.
  if (typeof args.snapshotDate === "string" && args.snapshotDate.trim() === "") {
    throw new LmsExportError(
      "bad-input",
      `--snapshot-date needs a day as YYYY-MM-DD, got ${JSON.stringify(args.snapshotDate)} (is the variable that should give it set?); leave the option out for today`,
    );
  }
  checkWhole(
    args.postgresTimeout,
    0,
    "--postgres-timeout must be a whole number of seconds, 0 to wait for ever (default 600)",
  );
  checkWhole(
    args.keep,
    1,
    "--keep must be a whole number of snapshot days to keep, at least 1 (leave it out to keep all)",
  );
}

/** A whole-number flag, when given: at least `least`, else `refusal`. */
function checkWhole(given: unknown, least: number, refusal: string): void {
  if (given === undefined) return;
  if (typeof given !== "number" || !Number.isInteger(given) || given < least) {
    throw new LmsExportError("bad-input", refusal);
  }
}
