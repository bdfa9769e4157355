/**
 * Two portals of the config file must not share a database file: `--all-portals` would extract
 * both into it at once, each full extract removing the other's records and leaving one portal's
 * run beside the other's rows, and every report would show one portal's data under both names.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { defaultPortalDb, type PortalEntries } from "./portals.js";
import { settingPath } from "./setting-path.js";

/**
 * Contract: throws a one-line bad-input naming the two portals and the file when two entries of
 * `portals` name the same database, each path as the portal would open it: its "db" against the
 * config file's folder `fileDir`, else its default in `cwd` ("~" being `home`). ":memory:" is
 * never shared.
 */
export function refuseSharedPortalDb(
  portals: PortalEntries,
  places: { configFile: string; fileDir: string; cwd: string; home: string },
): void {
  const owners = new Map<string, string>();
  for (const [name, entry] of Object.entries(portals)) {
    if (entry.db === ":memory:") continue;
    const path =
      entry.db === undefined
        ? settingPath({ dir: places.cwd, home: places.home }, defaultPortalDb(name))
        : settingPath({ dir: places.fileDir, home: places.home }, entry.db);
    const other = owners.get(path);
    if (other !== undefined) {
      throw new LmsExportError(
        "bad-input",
        `${places.configFile}: portals "${other}" and "${name}" share the database ${path}: give each portal its own "db"`,
      );
    }
    owners.set(path, name);
  }
}
