/**
 * The report names `report` and `run` take as their variadic positional: names from the catalog
 * or paths to .sql files. One definition, so the two commands describe them alike.
 */
import type { Argv } from "yargs";

export function withReportNames<T, K extends string>(y: Argv<T>, key: K) {
  return y.positional(key, {
    type: "string",
    array: true,
    demandOption: true,
    description: "Report or query names (see `lms-export list`), or paths to .sql files",
  });
}
