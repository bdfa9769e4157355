/**
 * The config file's `portals`: one entry per portal of an organisation with several, each with
 * its own address, key file, concurrency and database:
 *
 *   { "portals": { "acme": { "baseUrl": "https://acme.example.com/api-v2",
 *                            "apiKeyFile": "/etc/lms-export/acme.key", "concurrency": 8,
 *                            "db": "/var/lib/lms-export/lms-acme.duckdb" } } }
 *
 * A portal's database defaults to `lms-<name>.duckdb` in the working directory.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { didYouMean } from "../text/suggest-name.js";
import { type ConfigValues, FIELDS, type FieldName } from "./fields.js";
import { checkPortalName } from "./portal-name.js";
import { type RawValues, validateSource } from "./validate.js";

/** The settings a portal entry may set. */
export const PORTAL_FIELDS: readonly FieldName[] = [
  "baseUrl",
  "apiKeyFile",
  "concurrency",
  "db",
  "rate",
  "pageSize",
  "requestTimeout",
  "authScheme",
  "allowHttp",
];

export type PortalEntries = Record<string, ConfigValues>;

/** The database file of a portal when its entry names none. */
export function defaultPortalDb(name: string): string {
  return `lms-${name}.duckdb`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates the `portals` field of the config file at `path`; bad-input error naming the field. */
export function parsePortals(path: string, value: unknown): PortalEntries {
  const example =
    '{"acme": {"baseUrl": "https://acme.example.com/api-v2", "apiKeyFile": "acme.key"}}';
  if (!isObject(value)) {
    throw new LmsExportError(
      "bad-input",
      `${path}: field "portals" must be an object such as ${example}`,
    );
  }
  const entries: PortalEntries = {};
  for (const [name, entry] of Object.entries(value)) {
    checkPortalName(name, `${path}: portal name`);
    if (!isObject(entry)) {
      throw new LmsExportError(
        "bad-input",
        `${path}: field "portals.${name}" must be an object such as ${example}`,
      );
    }
    const raw: RawValues = {};
    for (const [key, inner] of Object.entries(entry)) {
      if (key.toLowerCase().replace(/[-_]/g, "") === "apikey") {
        throw new LmsExportError(
          "bad-input",
          `${path}: field "portals.${name}.${key}" is not allowed: an API key in a config file ends up in backups and version control; put it alone in a file (chmod 600) and set "apiKeyFile"`,
        );
      }
      const field = PORTAL_FIELDS.find((f) => FIELDS[f].file === key);
      if (field === undefined) {
        const known = PORTAL_FIELDS.map((f) => FIELDS[f].file);
        throw new LmsExportError(
          "bad-input",
          `${path}: unknown field "portals.${name}.${key}"${didYouMean(key, known)} (a portal may set: ${known.join(", ")})`,
        );
      }
      raw[field] = inner;
    }
    entries[name] = validateSource(
      raw,
      (f) => `${path}: field "portals.${name}.${FIELDS[f].file}"`,
    );
  }
  return entries;
}
