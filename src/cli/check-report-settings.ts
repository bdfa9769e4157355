/**
 * What `check` says of the settings that only reports use: the mail block and the shared report
 * parameters. They are read when a report runs, so without these lines a config that `report
 * --mail` refuses, or a misspelt parameter every report ignores, passed `check` with a ✓.
 * Nothing is connected to: the mail server is tried by the first message.
 */

import type { ResolvedConfig } from "../config/resolve.js";
import { errorText } from "../errors/error-text.js";
import { parseAddressList } from "../mail/address.js";
import { resolveMailSettings } from "../mail/settings.js";
import { loadCatalog } from "../report/catalog.js";
import { projectRoot } from "../report/project-root.js";
import { defaultRecipients } from "./mail-step.js";
import { undeclaredParams } from "./report-step.js";

/** A ✓/✗ line that counts (✗ fails the check), or a `!` line that only warns. */
export type CheckLine = (mark: "ok" | "failed" | "warning", what: string, detail: string) => void;

const MAIL_FIELDS = [
  "smtpUrl",
  "mailFrom",
  "mailDefaultTo",
  "mailFailuresTo",
  "smtpPasswordFile",
] as const;

/**
 * A line for the mail settings when any is set (as `report --mail` would resolve them), and one
 * warning per shared report parameter no query of the shipped catalog declares.
 */
export async function checkReportSettings(
  config: ResolvedConfig,
  env: Readonly<Record<string, string | undefined>>,
  line: CheckLine,
  signal?: AbortSignal,
): Promise<void> {
  if (MAIL_FIELDS.some((field) => config[field] !== undefined)) {
    try {
      const mail = await resolveMailSettings(config, env, { signal });
      const defaultTo = defaultRecipients(config);
      const to =
        defaultTo === undefined
          ? "no default recipients"
          : `default recipients ${defaultTo.join(", ")}`;
      const failures = config.mailFailuresTo;
      const told =
        failures === undefined
          ? ""
          : `, failures told to ${parseAddressList(failures, config.sources.mailFailuresTo).join(", ")}`;
      line(
        "ok",
        "mail settings",
        `${mail.display}, from ${mail.from}, ${to}${told} (not connected)`,
      );
    } catch (error) {
      line("failed", "mail settings", errorText(error));
    }
  }
  const shared = Object.keys(config.reportParams);
  if (shared.length === 0) return;
  const catalog = await loadCatalog(projectRoot());
  for (const text of undeclaredParams(shared, catalog, config)) {
    line("warning", "report parameters", text);
  }
}
