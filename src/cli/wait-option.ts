/**
 * --wait [SECONDS]: when another process holds the database (an extract writing it), wait for it
 * instead of failing at once. Alone it waits up to ten minutes.
 */
import type { Argv } from "yargs";
import { LmsExportError } from "../errors/lms-export-error.js";

const DEFAULT_WAIT_SECONDS = 600;

export function withWaitOption<T>(y: Argv<T>) {
  return y.option("wait", {
    type: "string",
    description: `Wait up to SECONDS (alone: ${DEFAULT_WAIT_SECONDS}) for a database another process holds, instead of failing at once`,
    coerce: (value: unknown): number | undefined => {
      if (value === undefined) return undefined;
      const text = String(Array.isArray(value) ? value.at(-1) : value).trim();
      if (text === "" || text === "true") return DEFAULT_WAIT_SECONDS;
      const seconds = Number(text);
      if (!Number.isFinite(seconds) || seconds < 0) {
        throw new LmsExportError(
          "bad-input",
          `--wait must be a number of seconds >= 0, got "${text}"`,
        );
      }
      return seconds;
    },
  });
}
