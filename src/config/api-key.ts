/**
 * Reading the API key. The key only ever comes from a file (--api-key-file, LMS_API_KEY_FILE or
 * the config file's apiKeyFile) or from LMS_API_KEY — never from a flag value, which other users
 * can read in the process list and which stays in shell history.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Logger } from "../log/logger.js";
import type { ResolvedConfig } from "./resolve.js";
import { readSecretFile } from "./secret-file.js";

/**
 * Answers the API key.
 *
 * Contract — where the key comes from, first match wins (flags > environment > config file):
 * 1. a key file named by --api-key-file or LMS_API_KEY_FILE;
 * 2. LMS_API_KEY;
 * 3. a key file named by the config file's "apiKeyFile".
 * A key file holds the key on one line; surrounding whitespace and a trailing newline are
 * trimmed. A missing, unreadable, empty or multi-line file, or no key anywhere, is a one-line
 * bad-input naming the path (never the content). A key file that group or others may read gets
 * a warning on `logger`, not an error.
 */
export async function readApiKey(
  config: Pick<ResolvedConfig, "apiKeyFile" | "sources">,
  env: Readonly<Record<string, string | undefined>>,
  options: { logger?: Logger } = {},
): Promise<string> {
  const fileSource = config.sources.apiKeyFile;
  const fileFromFlagOrEnv = fileSource === "--api-key-file" || fileSource === "LMS_API_KEY_FILE";
  if (config.apiKeyFile !== undefined && fileFromFlagOrEnv) {
    return readSecretFile(config.apiKeyFile, {
      source: fileSource,
      what: "API key",
      logger: options.logger,
    });
  }
  const fromEnv = env.LMS_API_KEY?.trim();
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  if (config.apiKeyFile !== undefined) {
    return readSecretFile(config.apiKeyFile, {
      source: fileSource,
      what: "API key",
      logger: options.logger,
    });
  }
  throw new LmsExportError(
    "bad-input",
    "no API key: put the key alone in a file and pass --api-key-file FILE (or set LMS_API_KEY_FILE), or set LMS_API_KEY",
  );
}
