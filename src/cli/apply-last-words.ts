/**
 * What `apply` says when a second Ctrl-C ends it at once: the first stops it cleanly and writes
 * the results file; the second does not wait, and the process would otherwise end with no word
 * of how far it got, or that running it again is safe.
 */
import type { Words } from "./last-words.js";

/** How far the sending got, as the progress line counts it. */
export interface ApplySoFar {
  done: number;
  total: number;
}

export function applyLastWords(soFar: ApplySoFar, journal: string): Words {
  return {
    stdout: "",
    stderr: `lms-export: apply ended at once by a second Ctrl-C, ${soFar.done} of ${soFar.total} rows sent, no results file written; the outcomes recorded so far are kept (${journal}), and a row being sent then may be applied. Run the same command again: it sends what is not recorded as applied, and writes the results file\n`,
  };
}
