/**
 * The LMS_* environment variables lms-export reads, and a warning for one that looks misspelt
 * (`LMS_CONCURENCY=4` was silently ignored, and the run went at the default pace). Only a name
 * close to one of these is warned about: an LMS_ name of a user's own (a wrapper script's
 * `LMS_HOME`, `LMS_ID`) is no concern of the tool's, and is not.
 */
import { editDistance } from "../text/edit-distance.js";
import { FIELD_NAMES, FIELDS } from "./fields.js";

/**
 * Variables read outside the settings' fields: secrets, the config file, the catalog, and the
 * mark the schedule sets on its runs (src/schedule/spawn-run.ts).
 */
const OTHER_NAMES = [
  "LMS_API_KEY",
  "LMS_CATALOG",
  "LMS_CONFIG",
  "LMS_PG_PASSWORD_FILE",
  "LMS_SCHEDULED_RUN",
  "LMS_SMTP_PASSWORD",
];

/** Every LMS_* variable lms-export reads. */
export const ENV_NAMES: ReadonlySet<string> = new Set([
  ...FIELD_NAMES.flatMap((field) => {
    const name = FIELDS[field].env;
    return name === undefined ? [] : [name];
  }),
  ...OTHER_NAMES,
]);

/**
 * How many letters a name after `LMS_` may differ by and still be taken for a misspelling: none
 * for a short one (`LMS_ID`, `LMS_PORT` are a user's own, not `LMS_DB` or `LMS_OUT` mistyped),
 * one up to seven letters, two beyond (`LMS_CONCURENCY`).
 */
function allowedEdits(suffix: string): number {
  if (suffix.length <= 4) return 0;
  return suffix.length <= 7 ? 1 : 2;
}

/**
 * Contract: one line for each LMS_* variable set in `env` that lms-export does not read but that
 * is within {@link allowedEdits} of one it does, naming the one it may have meant; none else.
 */
export function misspeltEnvNames(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith("LMS_") && !ENV_NAMES.has(name))
    .sort()
    .flatMap((name) => {
      const allowed = allowedEdits(name.slice("LMS_".length));
      const meant = [...ENV_NAMES]
        .map((known) => ({ known, d: editDistance(name.toUpperCase(), known) }))
        .filter(({ d }) => d > 0 && d <= allowed)
        .sort((x, y) => x.d - y.d || x.known.localeCompare(y.known));
      if (meant.length === 0) return [];
      const which = meant.map(({ known }) => known).join(" or ");
      return [`${name} is not a variable lms-export reads, and is ignored: did you mean ${which}?`];
    });
}
