/**
 * `checkpoint`: writes the changes waiting in the database's `.wal` file into the database file,
 * and nothing else. A run whose own final write failed (a full disk, a file size limit) leaves its
 * committed changes there; the commands that only read the database (`sql`, `report`, `check`,
 * `publish`) replay them in memory and leave the `.wal` as it was, and the commands that write it
 * need a portal or a file to do their own work first. This one needs only the database.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Argv } from "yargs";
import { shownPath } from "../../files/shown-path.js";
import { DEFAULT_MEMORY_LIMIT } from "../../load/memory-limit.js";
import { DatabaseMissingError } from "../../load/open-errors.js";
import { writeIntoFile } from "../../load/write-into-file.js";
import { namingDbSetting, setupCommand, withDatabase } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { withConfigOption, withDbOption, withLogOptions } from "../options.js";
import { withWaitOption } from "../wait-option.js";

async function checkpointCommand(
  args: Readonly<Record<string, unknown>> & { readonly wait?: number },
  ctx: CliContext,
): Promise<void> {
  const { config, logger } = await setupCommand(args, ctx);
  const shown = shownPath(ctx.cwd, config.db);
  // A read-write open would make a new, empty database: there is nothing to write into one.
  if (!existsSync(config.db)) throw namingDbSetting(new DatabaseMissingError(shown, {}), config);
  const waiting = existsSync(`${config.db}.wal`);
  const wait = { seconds: args.wait, logger, signal: ctx.signal };
  await withDatabase(config, { wait }, async (db) => {
    const connection = await db.connect();
    try {
      await writeIntoFile(connection, db.path, "", "the changes");
    } finally {
      connection.closeSync();
    }
  });
  const what = waiting
    ? `the changes waiting in ${basename(config.db)}.wal were written into it`
    : "no changes were waiting in a .wal file";
  ctx.stdout.write(`checkpoint: ${shown}: ${what}\n`);
}

export function registerCheckpoint(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "checkpoint",
    "Write the changes waiting in the database's .wal file into the database file",
    (y) =>
      withWaitOption(
        withLogOptions(withDbOption(withConfigOption(y), DEFAULT_MEMORY_LIMIT)),
      ).example("$0 checkpoint --db lms.duckdb", "after a run whose write into the file failed"),
    (args) => checkpointCommand(args, ctx),
  );
}
