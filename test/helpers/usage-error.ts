import { UsageError } from "../../src/cli-error.js";

/** The UsageError message thrown by `run`, checked to be one line with exit code 2. */
export async function usageErrorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.exitCode !== 2) throw new Error(`exit code ${error.exitCode}`);
    if (error.message.includes("\n")) throw new Error(`two lines: ${error.message}`);
    return error.message;
  }
  throw new Error("expected a UsageError");
}
