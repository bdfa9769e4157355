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
}

/** Throws a bad-input error for a publish without a target or with a setting of a missing one. */
export function checkPublishTargets(args: PublishTargets): void {
  if (args.lake === undefined && args.postgres === undefined) {
    throw new LmsExportError("bad-input", "name a target: --lake DIR or --postgres URL");
  }
  if (args.schema !== undefined && args.postgres === undefined) {
    throw new LmsExportError(
      "bad-input",
      "--schema is for --postgres URL: add it, or leave out --schema",
    );
  }
  checkPostgresTimeout(args);
  if (args.snapshotDate !== undefined && args.lake === undefined) {
    throw new LmsExportError(
      "bad-input",
      "--snapshot-date is for --lake DIR: add it, or leave out --snapshot-date",
    );
  }
}

/** `--postgres-timeout`: only with --postgres, and a whole number of seconds. */
function checkPostgresTimeout(args: PublishTargets): void {
  const given = args.postgresTimeout;
  if (given === undefined) return;
  if (args.postgres === undefined) {
    throw new LmsExportError(
      "bad-input",
      "--postgres-timeout is for --postgres URL: add it, or leave out --postgres-timeout",
    );
  }
  if (typeof given !== "number" || !Number.isInteger(given) || given < 0) {
    throw new LmsExportError(
      "bad-input",
      "--postgres-timeout must be a whole number of seconds, 0 to wait for ever (default 600)",
    );
  }
}
