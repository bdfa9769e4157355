/**
 * The folder holding queries/ and reports/: found from this module's own location (src/report/
 * when run from source, dist/report/ when built), so the catalog is found from any working
 * directory, e.g. under `npx lms-export`.
 */
import { fileURLToPath } from "node:url";

/** Absolute path of the folder that holds queries/ and reports/. */
export function projectRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url));
}
