/**
 * What to say when no file can be made in the folder of a database (DuckDB keeps its .wal there).
 * The errno alone misleads: root is refused in /sys with EACCES and in /proc with ENOENT, where
 * no permission can be fixed, and a read-only mount refuses everyone. The folder's mount tells
 * which advice can work; "fix its permissions" is kept for a folder whose permissions are the
 * cause.
 */
import { basename, dirname } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { mountRefusal } from "../files/mount-of.js";
import { noSpaceText } from "./disk-space.js";
import { refusalText } from "./folder-probe.js";

/**
 * The failure for database `shown` (at `absolute`) whose folder refused a new file with `refusal`.
 */
export function folderRefusalError(
  shown: string,
  absolute: string,
  refusal: NodeJS.ErrnoException,
): LmsExportError {
  const dir = dirname(absolute);
  const wal = `${basename(absolute)}.wal`;
  const options = { cause: refusal };
  const mounted = mountRefusal(dir, refusal.code);
  if (mounted !== undefined) {
    return new LmsExportError(
      "bad-input",
      `directory ${dir} ${mounted}, where no file can be made, so database ${shown} cannot be there; choose another --db`,
      options,
    );
  }
  if (refusal.code === "EACCES" || refusal.code === "EPERM") {
    return new LmsExportError(
      "bad-input",
      `directory ${dir} is not writable (DuckDB keeps ${wal} beside the database); fix its permissions or choose another --db`,
      options,
    );
  }
  if (refusal.code === "ENOSPC" || refusal.code === "EDQUOT") {
    return new LmsExportError(
      "disk-full",
      `no file can be made beside database ${shown}: ${noSpaceText(absolute)}; free space there`,
      options,
    );
  }
  return new LmsExportError(
    "bad-input",
    `directory ${dir} cannot hold database ${shown}: a file could not be made there (${refusalText(refusal)}); choose another --db`,
    options,
  );
}
