import { exitCodeOf } from "../../src/cli/exit-codes.js";
import { LmsExportError } from "../../src/errors/lms-export-error.js";

/** The message of the bad-input error thrown by `run`, checked to be one line with exit code 2. */
export async function usageErrorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof LmsExportError)) throw error;
    if (exitCodeOf(error) !== 2) throw new Error(`exit code ${exitCodeOf(error)}`);
    if (error.message.includes("\n")) throw new Error(`two lines: ${error.message}`);
    return error.message;
  }
  throw new Error("expected a bad-input error");
}
