import { existsSync } from "node:fs";
import type { Argv } from "yargs";
import type { ResolvedConfig } from "../../config/resolve.js";
import { homeOf, settingPath } from "../../config/setting-path.js";
import { isInterruption, LmsExportError } from "../../errors/lms-export-error.js";
import { shownPath } from "../../files/shown-path.js";
import { looksLikeFullDisk, noSpaceText } from "../../load/disk-space.js";
import { DEFAULT_MEMORY_LIMIT } from "../../load/memory-limit.js";
import { removeDatabaseFile } from "../../load/remove-database-file.js";
import { WriteIntoFileError } from "../../load/write-into-file.js";
import type { Logger } from "../../log/logger.js";
import { importRoster, type RosterImportSummary } from "../../roster/import-roster.js";
import { missingPersonFieldWarning } from "../../roster/person-columns.js";
import { sharedEmailsWarning } from "../../roster/shared-emails.js";
import { quotedCell } from "../../tabular/quoted-cell.js";
import { counted } from "../../text/counted.js";
import { type SettingsHook, setupCommand, withDatabase } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { FailureNotice, noticeCommandName } from "../failure-notice-step.js";
import { withConfigOption, withDbOption, withLogOptions } from "../options.js";
import { portalDatabaseRefusal } from "../portal-database-refusal.js";
import { withWaitOption } from "../wait-option.js";

/**
 * The import's line; it names the database, and says when the import created it: a mistyped
 * --db would otherwise fill a new file while reports go on reading the old one without names.
 */
function summaryLine(s: RosterImportSummary, db: string, created: boolean): string {
  const extras = s.extras.length > 0 ? s.extras.join(", ") : "none";
  const into = created ? `${db} (a new database)` : db;
  // A merge's empty cells keep stored values: said, so that one meant to clear is not missed.
  const kept =
    s.keptBlanks > 0
      ? `; ${s.keptBlanks} empty cell${s.keptBlanks === 1 ? "" : "s"} kept the stored value`
      : "";
  const renamed =
    s.renamed.length > 0
      ? `; renamed: ${s.renamed.map((r) => `${quotedCell(r.header)} → ${r.name}`).join(", ")}`
      : "";
  return `roster import: ${counted(s.rows, "row")} from ${s.file} (${s.format}) into ${into}, mode ${s.mode}; columns: ${s.columns.join(", ")}; extra columns: ${extras}${renamed}${kept}\n`;
}

/**
 * Bad files are typed as bad input already; a database that fails the swap is a failed run, and
 * one whose disk is full (DuckDB's "Could not write file ... .wal") says where to make room.
 * `db` is the database's absolute path, `shown` as the user named it.
 */
function asRosterFailure(error: unknown, db: string, shown: string): unknown {
  if (isInterruption(error)) {
    return new LmsExportError(
      "interrupted",
      "roster import interrupted; the previous roster is unchanged",
      { cause: error },
    );
  }
  if (error instanceof LmsExportError || !(error instanceof Error)) return error;
  const reason = error.message.split("\n", 1)[0];
  if (looksLikeFullDisk(error.message)) {
    return new LmsExportError(
      "disk-full",
      `roster import failed: the database ${shown} could not be written: ${noSpaceText(db)}; free space there and import again; the previous roster is unchanged`,
      { cause: error },
    );
  }
  return new LmsExportError(
    "storage-failed",
    `roster import failed (${reason}); the previous roster is unchanged`,
    { cause: error },
  );
}

/**
 * A config file of portals keeps each portal's database: a new default one beside them is a
 * roster nobody reads (roster import takes no --portal: --db names the portal's database).
 */
async function refuseDefaultBesidePortals(
  config: ResolvedConfig,
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<void> {
  if (config.origins.db !== "default") return;
  const refusal = await portalDatabaseRefusal(config, flags, ctx);
  if (refusal !== undefined) throw refusal;
}

/** The flags of `roster import` that say what to read and how. */
interface ImportFlags {
  readonly file: string;
  readonly sheet?: string;
  readonly merge: boolean;
  readonly wait?: number;
}

/**
 * Imports the file into the configured database. A database this import made (`created`) holds
 * no roster when it fails: a mistyped file or --db leaves none behind. One another process made
 * meanwhile, and holds (the open failed), is theirs.
 */
async function importInto(
  config: ResolvedConfig,
  args: ImportFlags,
  ctx: CliContext,
  how: { logger: Logger; created: boolean },
): Promise<RosterImportSummary> {
  // "~/" is the home folder here too, as in every path setting: no shell expands it in a quoted
  // argument or a schedule's command line.
  const path = settingPath({ dir: ctx.cwd, home: homeOf(ctx.env) }, args.file);
  const wait = { seconds: args.wait, logger: how.logger, signal: ctx.signal };
  let opened = false;
  return withDatabase(config, { wait }, (db) => {
    opened = true;
    return importRoster(db, {
      path,
      shown: shownPath(ctx.cwd, path),
      sheet: args.sheet,
      mode: args.merge ? "merge" : "replace",
      signal: ctx.signal,
    }).catch((error: unknown) => {
      throw asRosterFailure(error, config.db, shownPath(ctx.cwd, config.db));
    });
  }).catch(async (error: unknown) => {
    if (!how.created || !opened) throw error;
    await removeDatabaseFile(config.db);
    // Its .wal went with it: the roster is in no file left, whatever the error says of it.
    if (error instanceof WriteIntoFileError) {
      throw new LmsExportError(
        error.code,
        `roster import failed (${error.reason}); the database ${shownPath(ctx.cwd, config.db)} it made was removed: mend the cause and import again`,
        { cause: error },
      );
    }
    throw error;
  });
}

/** `roster import FILE`'s work once whom to tell of a failure is known (`settled` reads it). */
async function importCommand(
  args: ImportFlags & Readonly<Record<string, unknown>>,
  ctx: CliContext,
  settled: SettingsHook,
): Promise<void> {
  const flags = { ...args, format: undefined, param: undefined };
  const { config, logger } = await setupCommand(flags, ctx, { settled });
  const created = !existsSync(config.db);
  if (created) await refuseDefaultBesidePortals(config, args, ctx);
  const summary = await importInto(config, args, ctx, { logger, created });
  ctx.stdout.write(summaryLine(summary, shownPath(ctx.cwd, config.db), created));
  for (const field of summary.missingFields) {
    logger.warn(missingPersonFieldWarning(summary.file, field));
  }
  const shared = sharedEmailsWarning(summary.sharedEmails);
  if (shared !== undefined) logger.warn(shared);
}

/**
 * `roster import FILE`: the organisation's people, from an HR or portal-admin export, into the
 * `user` table (the portal cannot list users). Replaces the roster, or with --merge upserts it.
 */
export function registerRoster(root: Argv, ctx: CliContext): Argv {
  return root.command("roster", "Manage the people list (the user table)", (roster) =>
    roster
      .command(
        "import <file>",
        "Import a people file (CSV, XLSX, Parquet, JSON lines) into the user table",
        (y) =>
          withWaitOption(withLogOptions(withDbOption(withConfigOption(y), DEFAULT_MEMORY_LIMIT)))
            .positional("file", {
              type: "string",
              demandOption: true,
              description: "The roster file; one row per person with a user_id column",
            })
            .option("sheet", {
              type: "string",
              description: "XLSX sheet to read (default: the first)",
            })
            .option("merge", {
              type: "boolean",
              default: false,
              description:
                "Update and add people by user_id, keeping everyone else, columns the file lacks and values under empty cells (default: the file replaces the roster)",
            })
            .example("$0 roster import people.csv", "the file becomes the whole roster")
            .example("$0 roster import hr.xlsx --sheet Staff --merge", "update from one sheet"),
        async (args) => {
          // Whom to tell comes from the environment or the config file: no mail flags here.
          const flags = { ...args, format: undefined, param: undefined };
          const name = noticeCommandName(["roster", "import", args.file]);
          const notice = new FailureNotice(ctx, name, flags);
          await notice.run(() => importCommand(args, ctx, notice.settled));
        },
      )
      .demandCommand(1, "Name a roster command: try `lms-export roster import --help`."),
  );
}
