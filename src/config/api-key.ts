/**
 * Reading the API key. The key only ever comes from a file (--api-key-file, LMS_API_KEY_FILE, a
 * portal entry's or the config file's apiKeyFile) or from LMS_API_KEY — never from a flag value,
 * which other users can read in the process list and which stays in shell history.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ResolvedConfig } from "./resolve.js";
import { oneLineSecret } from "./secret-env.js";
import { readSecretFile, type SecretReading } from "./secret-file.js";

/** The settings that decide where the key comes from. */
export type ApiKeySettings = Pick<
  ResolvedConfig,
  "apiKeyFile" | "sources" | "origins" | "portal" | "configFile"
>;

/** Where the key is read from: a file (with the setting that named it) or LMS_API_KEY. */
export type ApiKeySource =
  | { kind: "file"; path: string; source: string }
  | { kind: "env"; source: "LMS_API_KEY" };

/**
 * Decides where the key comes from, first match wins:
 * 1. a key file named by --api-key-file, by the `--portal` entry of the config file (also each
 *    portal of `--all-portals`), or by LMS_API_KEY_FILE;
 * 2. LMS_API_KEY;
 * 3. a key file named by the config file's top-level "apiKeyFile".
 * A portal of the config file (`--portal`, each of `--all-portals`) takes its key from its entry
 * or --api-key-file only: one key in the environment must never be sent to every portal of the
 * file, nor a portal's key to another portal's address. Undefined when no source gives a key.
 */
export function apiKeySource(
  config: ApiKeySettings,
  env: Readonly<Record<string, string | undefined>>,
): ApiKeySource | undefined {
  const file = config.apiKeyFile;
  const origin = config.origins.apiKeyFile;
  const aboveEnvKey = origin === "flag" || origin === "portal" || origin === "env";
  if (file !== undefined && aboveEnvKey) {
    return { kind: "file", path: file, source: config.sources.apiKeyFile };
  }
  if (config.portal !== undefined) return undefined;
  if (env.LMS_API_KEY?.trim()) return { kind: "env", source: "LMS_API_KEY" };
  if (file !== undefined) return { kind: "file", path: file, source: config.sources.apiKeyFile };
  return undefined;
}

/**
 * How messages name where the key comes from (call it once the key was read: it shows a file's
 * path). Never the key.
 */
export function describeApiKeySource(
  config: ApiKeySettings,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const where = apiKeySource(config, env);
  return where?.kind === "file" ? `the key file ${where.path} (${where.source})` : "LMS_API_KEY";
}

/**
 * Answers the API key from the place {@link apiKeySource} picks.
 *
 * Contract: a key file holds the key on one line; surrounding whitespace and a trailing newline
 * are trimmed. A missing, unreadable, empty or multi-line file, or no key anywhere, is a one-line
 * bad-input naming the setting (never the content; see readSecretFile for when the path is
 * shown). A key file that group or others may read gets a warning on `logger`, not an error.
 */
export async function readApiKey(
  config: ApiKeySettings,
  env: Readonly<Record<string, string | undefined>>,
  options: SecretReading = {},
): Promise<string> {
  const where = apiKeySource(config, env);
  if (where === undefined && config.portal !== undefined) {
    throw new LmsExportError(
      "bad-input",
      `portal "${config.portal}" has no key file: set "portals.${config.portal}.apiKeyFile" in ${config.configFile ?? "the config file"} (or pass --api-key-file FILE); LMS_API_KEY, LMS_API_KEY_FILE and the top-level "apiKeyFile" are never sent to a portal of the config file`,
    );
  }
  if (where === undefined) {
    throw new LmsExportError(
      "bad-input",
      "no API key: put the key alone in a file and pass --api-key-file FILE (or set LMS_API_KEY_FILE), or set LMS_API_KEY",
    );
  }
  if (where.kind === "env") {
    return oneLineSecret(
      env.LMS_API_KEY?.trim() ?? "",
      "LMS_API_KEY",
      "API key",
      "LMS_API_KEY_FILE",
    );
  }
  return readSecretFile(where.path, {
    source: where.source,
    what: "API key",
    ...options,
  });
}
