/**
 * The way on after a portal's extract stopped, said for that portal. Below the command line a
 * failure can only advise `lms-export extract --resume`, which resumes the database of the
 * top-level settings: after `--portal NAME` or `--all-portals` it would name no portal address,
 * or extract another database, while the portal's staged work waits in its own side file.
 */
import { LmsExportError } from "../errors/lms-export-error.js";

const RESUME = "lms-export extract --resume";

/** `error` with its resume advice naming `portal` (when it is a portal's run), else `error`. */
export function namingPortalToResume(error: unknown, portal: string | undefined): unknown {
  if (portal === undefined || !(error instanceof LmsExportError)) return error;
  if (!error.message.includes(RESUME)) return error;
  const message = error.message.replaceAll(
    RESUME,
    `lms-export extract --portal ${portal} --resume`,
  );
  return new LmsExportError(error.code, message, { cause: error });
}
