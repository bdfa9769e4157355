/**
 * The way on after an extract stopped, said for the database it wrote. Below the command line a
 * failure can only advise `lms-export extract --resume`, which resumes the database of the
 * top-level settings: after `--portal NAME` or `--all-portals` it would name no portal address,
 * or extract another database, while the portal's staged work waits in its own side file; and
 * after `--db FILE` it would start a new run in the default database, leaving FILE's waiting.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { pathWord } from "../text/shell-word.js";

const RESUME = "lms-export extract --resume";

/** What names the stopped run's database on a command line: its portal, else the --db given. */
export interface ResumeTarget {
  readonly portal: string | undefined;
  /** The --db flag as typed; undefined when the database came from the defaults or settings. */
  readonly dbFlag: string | undefined;
}

/** `error` with its resume advice naming `target`'s portal or database, else `error`. */
export function namingRunToResume(error: unknown, target: ResumeTarget): unknown {
  if (!(error instanceof LmsExportError) || !error.message.includes(RESUME)) return error;
  const { portal, dbFlag } = target;
  const naming =
    portal !== undefined
      ? ` --portal ${portal}`
      : dbFlag !== undefined
        ? ` --db ${pathWord(dbFlag)}`
        : "";
  if (naming === "") return error;
  const message = error.message.replaceAll(RESUME, `lms-export extract${naming} --resume`);
  return new LmsExportError(error.code, message, { cause: error });
}
