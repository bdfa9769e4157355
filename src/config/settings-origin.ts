/**
 * Where a command's settings came from, in a few words ("flags, environment and FILE"), for the
 * line of `check` that shows them: the config file alone is named only when it gave them all, so
 * a value that a flag or an LMS_* variable overrode is not credited to the file.
 */
import { listed } from "../text/listed-words.js";
import type { FieldName } from "./fields.js";
import type { ResolvedConfig, SettingOrigin } from "./resolve.js";

/** The settings it reads: which kind of source gave each, and the file and portal named. */
export type SettingsOriginInput = Pick<ResolvedConfig, "origins" | "configFile" | "portal">;

/**
 * The sources that gave any setting but those in `ignore`, highest precedence first, joined as
 * prose; "defaults" when none did. `ignore` leaves out what says nothing of the settings shown
 * (check's own quiet, the log format).
 */
export function describeSettingsOrigin(
  config: SettingsOriginInput,
  ignore: readonly FieldName[] = [],
): string {
  const used = new Set<SettingOrigin>();
  for (const [field, origin] of Object.entries(config.origins) as [FieldName, SettingOrigin][]) {
    if (!ignore.includes(field)) used.add(origin);
  }
  const file = config.configFile ?? "the config file";
  const entry = `portals.${config.portal ?? "?"}`;
  const fromFile =
    used.has("portal") && used.has("file")
      ? `${file} (${entry} and its top level)`
      : used.has("portal")
        ? `${file} (${entry})`
        : used.has("file")
          ? file
          : undefined;
  const names = [
    used.has("flag") ? "flags" : undefined,
    used.has("env") ? "environment" : undefined,
    fromFile,
  ].filter((name): name is string => name !== undefined);
  if (names.length === 0) return "defaults";
  return listed(names);
}
