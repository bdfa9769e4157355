/**
 * The options of `report`: the names to write, where to read them from, and the options of every
 * report writer. Its own module, so the command that sends failed mail again (resend-command.ts)
 * can tell which options of another command's line `report` takes.
 */
import type { Argv } from "yargs";
import { withConfigOption, withDbOption, withLogOptions } from "./options.js";
import { withReportNames } from "./report-names-option.js";
import { withReportSourceOptions } from "./report-source.js";
import { withReportWritingOptions } from "./report-writing-options.js";

/** The key of `report`'s report names in its parsed command line. */
export const REPORT_NAMES_KEY = "names";

/** The names to write, where to read them from, and the options of every report writer. */
export function reportBuilder(y: Argv) {
  return withReportNames(
    withReportWritingOptions(
      withLogOptions(withReportSourceOptions(withDbOption(withConfigOption(y)))),
    ),
    REPORT_NAMES_KEY,
  )
    .example("$0 report weekly-compliance", "the weekly workbook and Parquet files into ./out")
    .example(
      "$0 report compliance --param product_ids=1,2 --param group_id=3 --format xlsx",
      "one query, with parameters, as a workbook",
    )
    .example(
      "$0 report completion-overview --format html,xlsx",
      "one page with charts and tables (nothing fetched when opened), and the full workbook",
    )
    .example("$0 report ./my-query.sql --format csv --out exports/", "your own SQL file")
    .example("$0 report completion --lake /srv/lake", "across every portal of a lake")
    .example("$0 report compliance --all-portals", "across every portal's database")
    .example("$0 report weekly-compliance --portal acme", "one portal's database, into out/acme/")
    .example(
      "$0 report weekly-compliance --mail",
      "write the report and mail it (settings: LMS_SMTP_URL, LMS_MAIL_FROM, LMS_MAIL_DEFAULT_TO)",
    );
}
