/**
 * Two portals of the config file must not share a database file: `--all-portals` would extract
 * both into it at once, each full extract removing the other's records and leaving one portal's
 * run beside the other's rows, and every report would show one portal's data under both names.
 * Nor may the file's top-level settings name another portal's database: `extract` and
 * `extract --portal NAME` would take turns replacing each other's records, and an incremental
 * run would mix them.
 */
import { readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ConfigValues } from "./fields.js";
import { defaultPortalDb, type PortalEntries } from "./portals.js";
import { sameAddress } from "./same-address.js";
import { settingPath } from "./setting-path.js";

/** Where the paths of the config file are read from. */
export interface ConfigPlaces {
  readonly configFile: string;
  readonly fileDir: string;
  readonly cwd: string;
  readonly home: string;
}

/**
 * The file a path opens, whatever it is called: a link (symbolic or hard) to a database is that
 * database. A file not made yet is named by its folder's real path.
 */
function fileIdentity(path: string): string {
  try {
    const found = statSync(path);
    return `inode ${found.dev}:${found.ino}`;
  } catch {
    // Not made yet, or a link to a file not made yet (the first extract makes it).
    const target = linkTarget(path) ?? path;
    try {
      return join(realpathSync(dirname(target)), basename(target));
    } catch {
      return target;
    }
  }
}

/** Where the symbolic link at `path` points, or undefined when it is none. */
function linkTarget(path: string): string | undefined {
  try {
    return resolve(dirname(path), readlinkSync(path));
  } catch {
    return undefined;
  }
}

/**
 * Contract: throws a one-line bad-input naming the two portals and the file when two entries of
 * `portals` name the same database, each path as the portal would open it: its "db" against the
 * config file's folder `fileDir`, else its default in `cwd` ("~" being `home`); or when the
 * top-level "db" is a portal's database while the top-level "baseUrl" names another portal.
 * Links are followed. ":memory:" is never shared.
 */
export function refuseSharedPortalDb(
  portals: PortalEntries,
  topLevel: ConfigValues,
  places: ConfigPlaces,
): void {
  const owners = new Map<string, { name: string; path: string }>();
  for (const [name, entry] of Object.entries(portals)) {
    if (entry.db === ":memory:") continue;
    const path =
      entry.db === undefined
        ? settingPath({ dir: places.cwd, home: places.home }, defaultPortalDb(name))
        : settingPath({ dir: places.fileDir, home: places.home }, entry.db);
    const identity = fileIdentity(path);
    const other = owners.get(identity);
    if (other !== undefined) {
      const shown = other.path === path ? path : `${other.path} (as ${path})`;
      throw new LmsExportError(
        "bad-input",
        `${places.configFile}: portals "${other.name}" and "${name}" share the database ${shown}: give each portal its own "db"`,
      );
    }
    owners.set(identity, { name, path });
  }
  refuseTopLevelShare(portals, topLevel, owners, places);
}

/** The top-level "db" is a portal's database, with the top-level "baseUrl" another portal's. */
function refuseTopLevelShare(
  portals: PortalEntries,
  topLevel: ConfigValues,
  owners: ReadonlyMap<string, { name: string; path: string }>,
  places: ConfigPlaces,
): void {
  if (topLevel.db === undefined || topLevel.db === ":memory:") return;
  const path = settingPath({ dir: places.fileDir, home: places.home }, topLevel.db);
  const owner = owners.get(fileIdentity(path));
  if (owner === undefined) return;
  // The top level repeating a portal's settings (its default portal) is that portal, not another.
  const portalUrl = portals[owner.name]?.baseUrl ?? topLevel.baseUrl;
  if (topLevel.baseUrl === undefined) return;
  if (portalUrl !== undefined && sameAddress(portalUrl, topLevel.baseUrl)) return;
  throw new LmsExportError(
    "bad-input",
    `${places.configFile}: the top-level "db" is the database of portal "${owner.name}" (${owner.path}) while the top-level "baseUrl" is another portal's: give the top level its own "db", or make it portal "${owner.name}"'s address`,
  );
}
