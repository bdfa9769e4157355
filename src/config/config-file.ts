/**
 * The JSON config file: found in the working directory (lms-export.config.json) or named by
 * --config / LMS_CONFIG, read once, checked for a key written into it, validated field by field.
 *
 * Example:
 *   { "baseUrl": "https://lms.example.com/api-v2", "apiKeyFile": "./secrets/lms.key",
 *     "db": "./lms.duckdb", "concurrency": 16, "report": { "formats": ["xlsx"],
 *     "params": { "days": 30 } } }
 */
import { dirname } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { findDuplicateKey } from "../text/json-duplicate-key.js";
import { didYouMean } from "../text/suggest-name.js";
import { positionAt } from "../text/text-position.js";
import { readConfigText } from "./config-text.js";
import { FIELD_NAMES, FIELDS, type FieldName } from "./fields.js";
import { jsonErrorOffset } from "./json-error-offset.js";
import { type PortalEntries, parsePortals } from "./portals.js";
import { type RawValues, validateSource } from "./validate.js";

/** A config file after validation. */
export interface LoadedConfigFile {
  /** Absolute path of the file. */
  path: string;
  /** Folder relative paths in the file are resolved against. */
  dir: string;
  values: ReturnType<typeof validateSource>;
  /** The `portals` entries, validated (empty when the file has none). */
  portals: PortalEntries;
}

// Top-level names a file may use besides the settings: "$schema" lets editors offer completion.
const EXTRA_TOP_LEVEL = new Set(["$schema"]);

/**
 * Contract: reads and validates `path` (absolute). Throws a one-line bad-input naming the file
 * when it cannot be read, is empty, is not JSON (line and column only: the parser's excerpt could
 * contain a secret), holds a key twice in one object (JSON.parse would keep the last), is not an
 * object, has an unknown field (listing the known ones), holds an API key
 * (`apiKey`, `api_key`, any case: keys belong in a key file), or has a wrong value.
 */
export async function loadConfigFile(path: string): Promise<LoadedConfigFile> {
  const document = parseJson(path, await readConfigText(path));
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new LmsExportError(
      "bad-input",
      `the config file ${path} must hold a JSON object, e.g. {"db": "./lms.duckdb"}`,
    );
  }
  const { portals, ...settings } = document as Record<string, unknown>;
  const raw = flatten(path, settings);
  const values = validateSource(raw, (field) => `${path}: field "${FIELDS[field].file}"`);
  return {
    path,
    dir: dirname(path),
    values,
    portals: portals === undefined ? {} : parsePortals(path, portals),
  };
}

function parseJson(path: string, raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, "");
  if (text.trim() === "") {
    throw new LmsExportError(
      "bad-input",
      `the config file ${path} is empty: write a JSON object such as {"db": "./lms.duckdb"}`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // The parser's own message is not shown: its excerpt of the file could hold a secret.
    const offset = jsonErrorOffset(text);
    const where =
      offset === undefined ? " (it ends too soon)" : ` at ${lineAndColumn(text, offset)}`;
    const yaml = /\.ya?ml$/i.test(path) ? " (config files are JSON, not YAML)" : "";
    const why = offset === undefined ? "" : jsonSlip(text, offset);
    throw new LmsExportError(
      "bad-input",
      `the config file ${path} is not valid JSON${where}${yaml}${why}: fix the syntax`,
    );
  }
  refuseDuplicateKey(path, text);
  return document;
}

/**
 * The two slips JSON refuses that other config formats allow, named where the parser stopped:
 * a comment, and a comma before a closing bracket. Only the kind is said, never the text.
 */
function jsonSlip(text: string, offset: number): string {
  if (text.startsWith("//", offset) || text.startsWith("/*", offset)) {
    return " (JSON has no comments: remove it)";
  }
  const closing = text[offset] === "}" || text[offset] === "]";
  if (closing && text.slice(0, offset).trimEnd().endsWith(",")) {
    return ` (a comma before "${text[offset]}": JSON allows none after the last item)`;
  }
  return "";
}

function refuseDuplicateKey(path: string, text: string): void {
  const duplicate = findDuplicateKey(text);
  if (duplicate === undefined) return;
  const { firstLine, secondLine } = duplicate;
  const lines =
    firstLine === secondLine ? `both on line ${firstLine}` : `lines ${firstLine} and ${secondLine}`;
  throw new LmsExportError(
    "bad-input",
    `${path}: field "${duplicate.path}" is written twice (${lines}), and only the last would count: remove one`,
  );
}

function lineAndColumn(text: string, offset: number): string {
  const { line, column } = positionAt(text, offset);
  return `line ${line}, column ${column}`;
}

/** Top-level fields that group settings, with an example shown when one is not an object. */
const SECTION_EXAMPLES: Readonly<Record<string, string>> = {
  report: '{"formats": ["csv"], "params": {}}',
  mail: '{"from": "reports@example.com", "smtpUrl": "smtps://mail.example.com:465"}',
};

function isPasswordName(name: string): boolean {
  return /pass(word)?$/.test(name.toLowerCase().replace(/[-_]/g, ""));
}

function isApiKeyName(name: string): boolean {
  return name.toLowerCase().replace(/[-_]/g, "") === "apikey";
}

function flatten(path: string, document: object): RawValues {
  const raw: RawValues = {};
  const byFilePath = new Map<string, FieldName>(FIELD_NAMES.map((f) => [FIELDS[f].file, f]));
  // "portals" is read apart from the settings, but a file may misspell it like any other.
  const names = [...byFilePath.keys(), "portals"];
  const known = names.join(", ");
  const visit = (object: object, prefix: string): void => {
    for (const [key, value] of Object.entries(object)) {
      const dotted = prefix === "" ? key : `${prefix}.${key}`;
      if (isApiKeyName(key)) {
        throw new LmsExportError(
          "bad-input",
          `${path}: field "${dotted}" is not allowed: an API key in a config file ends up in backups and version control; put the key alone in a file readable only by you (chmod 600) and set "apiKeyFile" to its path, or use LMS_API_KEY_FILE or LMS_API_KEY`,
        );
      }
      const field = byFilePath.get(dotted);
      if (field !== undefined) {
        raw[field] = value;
        continue;
      }
      if (prefix === "" && EXTRA_TOP_LEVEL.has(key)) continue;
      if (prefix === "mail" && isPasswordName(key)) {
        throw new LmsExportError(
          "bad-input",
          `${path}: field "${dotted}" is not allowed: a password in a config file ends up in backups and version control; put it alone in a file readable only by you (chmod 600) and set "mail.smtpPasswordFile" to its path, or use LMS_SMTP_PASSWORD_FILE or LMS_SMTP_PASSWORD`,
        );
      }
      const example = prefix === "" ? SECTION_EXAMPLES[key] : undefined;
      if (example !== undefined) {
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          throw new LmsExportError(
            "bad-input",
            `${path}: field "${key}" must be an object such as ${example}`,
          );
        }
        visit(value, key);
        continue;
      }
      throw new LmsExportError(
        "bad-input",
        `${path}: unknown field "${dotted}"${didYouMean(dotted, names)} (known fields: ${known})`,
      );
    }
  };
  visit(document, "");
  return raw;
}
