/**
 * The base URL as the configuration keeps it: checked by the security gate (checkBaseUrl), its
 * trailing slashes dropped, and a refusal that names what gave it. An address used for a portal
 * of the config file (`--portal`) is told to keep the key in that portal's key file: the
 * LMS_API_KEY_FILE and LMS_API_KEY the general advice names never apply to a portal.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { checkBaseUrl, KEY_PLACES } from "../security/base-url.js";

/** What the check needs besides the URL. */
export interface BaseUrlSetting {
  readonly allowHttp: boolean;
  /** What gave the URL: "--base-url", "LMS_BASE_URL", "<file> (portals.acme.baseUrl)". */
  readonly source: string;
  /** The portal of the config file the settings are for (`--portal`), if any. */
  readonly portal: string | undefined;
}

/** Contract: answers the checked URL without trailing slashes, or throws a one-line bad-input. */
export function checkedBaseUrl(url: string, setting: BaseUrlSetting): string {
  try {
    return checkBaseUrl(url, setting.allowHttp, keyPlace(setting)).href.replace(/\/+$/, "");
  } catch (error) {
    if (error instanceof LmsExportError) {
      throw new LmsExportError(error.code, `${error.message} (base URL from ${setting.source})`);
    }
    throw error;
  }
}

function keyPlace(setting: BaseUrlSetting): string {
  // The refusal ends naming the config file that gave the address, so it is not repeated here.
  if (setting.portal === undefined) return KEY_PLACES;
  return `in a file named by "portals.${setting.portal}.apiKeyFile" (or --api-key-file FILE)`;
}
