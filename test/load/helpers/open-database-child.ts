/**
 * Child process: for each argument "rw:PATH" or "ro:PATH", openDatabase(PATH) (read-only for
 * "ro") and print the outcome as one JSON line. Tests run it as an unprivileged user, for whom
 * file permissions apply.
 */
import { exitCodeOf } from "../../../src/cli/exit-codes.js";
import { LmsExportError } from "../../../src/errors/lms-export-error.js";
import { openDatabase } from "../../../src/load/database.js";

for (const arg of process.argv.slice(2)) {
  const readOnly = arg.startsWith("ro:");
  const path = arg.slice(3);
  try {
    const db = await openDatabase(path, { readOnly });
    db.close();
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  } catch (error) {
    process.stdout.write(
      `${JSON.stringify({
        ok: false,
        exitCode: error instanceof LmsExportError ? exitCodeOf(error) : undefined,
        message: error instanceof Error ? error.message : String(error),
      })}\n`,
    );
  }
}
