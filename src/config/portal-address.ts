/**
 * The portal's address, required by the commands that talk to it. A portal of the config file
 * (`--portal`, each of `--all-portals`) takes its address from its own entry or --base-url only,
 * so the message for a missing one names that entry rather than LMS_BASE_URL, which does not
 * apply to it.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ResolvedConfig } from "./resolve.js";

/** The settings that say which portal is meant and where its address would come from. */
export type PortalAddressSettings = Pick<ResolvedConfig, "baseUrl" | "portal" | "configFile">;

/** The one-line error for a missing address: what to set, and where. */
export function missingBaseUrl(config: PortalAddressSettings): LmsExportError {
  if (config.portal !== undefined) {
    return new LmsExportError(
      "bad-input",
      `portal "${config.portal}" has no address: set "portals.${config.portal}.baseUrl" in ${config.configFile ?? "the config file"} (or pass --base-url URL); LMS_BASE_URL and the top-level "baseUrl" never apply to a portal of the config file`,
    );
  }
  return new LmsExportError(
    "bad-input",
    "no portal address: pass --base-url URL or set LMS_BASE_URL (see `lms-export extract --help`)",
  );
}

/** Contract: answers the checked address, or throws {@link missingBaseUrl}'s error. */
export function requireBaseUrl(config: PortalAddressSettings): string {
  if (config.baseUrl === undefined || config.baseUrl === "") throw missingBaseUrl(config);
  return config.baseUrl;
}
