/**
 * The API client's options as a command that reads or changes a portal takes them from its
 * settings: the address and key, the transport's safety and pace, the Authorization form the
 * portal accepted last time (src/config/state-files.ts). `extract` adds its page size; `check`
 * probes with a pace and timeout of its own, so it builds its own.
 */
import type { ClientOptions } from "../api/client.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { authFormsFile } from "../config/state-files.js";
import type { Logger } from "../log/logger.js";

export function portalClientOptions(
  config: ResolvedConfig,
  portal: { baseUrl: string; apiKey: string },
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): ClientOptions {
  return {
    baseUrl: portal.baseUrl,
    apiKey: portal.apiKey,
    allowHttp: config.allowHttp,
    authScheme: config.authScheme,
    // Starts with the form the portal accepted last time and keeps one learned here.
    authFormsFile: authFormsFile(env),
    concurrency: config.concurrency,
    maxConcurrency: config.maxConcurrency,
    rate: config.rate,
    timeoutMs: config.requestTimeoutMs,
    logger,
  };
}
