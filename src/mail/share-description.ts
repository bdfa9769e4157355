/**
 * The description of one recipient's share of a split report. A share holds only the queries
 * with the split column, so a report's description of its every part ("Summary: totals for
 * everyone … Trend: …") told a manager of sheets their copy does not have; the share's About
 * sheet and message body say what it holds instead. The whole report's description is kept, as
 * what the report is, and followed by what this copy of it holds.
 */
import type { ReportJob } from "../report/report-jobs.js";
import type { SplitScope } from "./scope-line.js";

/**
 * Which rows the share of `scope` holds, said by its files (About sheet, page): the whole
 * report's would otherwise be all they say of it.
 */
export function shareRows(scope: SplitScope): string {
  return scope.address === undefined
    ? `Only the rows whose ${scope.label} is empty or is not an e-mail address.`
    : `Only the rows whose ${scope.label} is ${scope.address}.`;
}

/**
 * `job`'s description for the share of `scope` holding the queries named in `held`: as it is when
 * the share holds every query, else followed by which parts it holds, for whom.
 */
export function shareDescription(
  job: Pick<ReportJob, "description" | "queries">,
  held: ReadonlySet<string>,
  scope: SplitScope,
): string {
  const kept = job.queries.filter((query) => held.has(query.name));
  if (kept.length === job.queries.length) return job.description;
  const parts = kept.map((query) => `"${query.title}"`).join(", ");
  const rows =
    scope.address === undefined
      ? `the rows whose ${scope.label} is empty or is not an e-mail address`
      : `the rows for ${scope.address}`;
  const holds = `This copy holds only ${parts}, with only ${rows}; the report's other parts are left out of it.`;
  return job.description === "" ? holds : `${job.description} ${holds}`;
}
