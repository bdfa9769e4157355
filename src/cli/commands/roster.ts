import { resolve } from "node:path";
import type { Argv } from "yargs";
import { CliError, UsageError } from "../../cli-error.js";
import { RosterError } from "../../roster/errors.js";
import { importRoster, type RosterImportSummary } from "../../roster/import-roster.js";
import { TabularError } from "../../tabular/types.js";
import { setupCommand, withDatabase } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { withConfigOption, withDbOption } from "../options.js";

function summaryLine(s: RosterImportSummary): string {
  const extras = s.extras.length > 0 ? s.extras.join(", ") : "none";
  return `roster import: ${s.rows} rows from ${s.file} (${s.format}), mode ${s.mode}; columns: ${s.columns.join(", ")}; extra columns: ${extras}\n`;
}

/** Bad files are bad input (exit 2); a database that fails the swap is a failed run (exit 1). */
function asCliError(error: unknown): unknown {
  if (error instanceof TabularError || error instanceof RosterError) {
    return new UsageError(error.message, { cause: error });
  }
  if (error instanceof CliError || !(error instanceof Error)) return error;
  const reason = error.message.split("\n", 1)[0];
  return new CliError(`roster import failed (${reason}); the previous roster is unchanged`, 1, {
    cause: error,
  });
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
          withDbOption(withConfigOption(y))
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
                "Update and add people by user_id, keeping everyone else and columns the file lacks (default: the file replaces the roster)",
            })
            .example("$0 roster import people.csv", "the file becomes the whole roster")
            .example("$0 roster import hr.xlsx --sheet Staff --merge", "update from one sheet"),
        async (args) => {
          const { config } = await setupCommand(
            { ...args, format: undefined, param: undefined },
            ctx,
          );
          const summary = await withDatabase(
            config.db,
            { memoryLimit: config.duckdbMemoryLimit },
            (db) =>
              importRoster(db, {
                path: resolve(ctx.cwd, args.file),
                sheet: args.sheet,
                mode: args.merge ? "merge" : "replace",
              }).catch((error: unknown) => {
                throw asCliError(error);
              }),
          );
          ctx.stdout.write(summaryLine(summary));
        },
      )
      .demandCommand(1, "Name a roster command: try `lms-export roster import --help`."),
  );
}
