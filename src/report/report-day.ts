/**
 * The day a report is as of: the `today` its queries run with (a past day gives that day's
 * figures), else the day it is made. A file name's or mail subject's `{today}` says it, where
 * `{date}`, the day the report was made, would name June's figures after November.
 */
import type { ReportJob } from "./report-jobs.js";

/** The parameter the shipped queries take their reference day by. */
const TODAY = "today";

/** `job`'s day as YYYY-MM-DD: its first query's `today` of type date, else `now`'s UTC day. */
export function reportDay(job: Pick<ReportJob, "queries" | "params">, now: Date): string {
  for (const query of job.queries) {
    const value = job.params.get(query.name)?.get(TODAY);
    if (value?.type === "date" && value.text !== "") return value.text;
  }
  return now.toISOString().slice(0, 10);
}
