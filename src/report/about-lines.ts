/**
 * The lines of a workbook's About sheet: what the report is, when its data was loaded, the
 * parameters it ran with, what each sheet holds, how well the roster covers the people, whom the
 * queries leave out as gone, and whether formulas were neutralised.
 */
import type { AboutLine } from "./export/xlsx.js";
import type { LastLoad } from "./last-load.js";
import {
  EXCLUDED_STATUSES,
  LEFT_PEOPLE_LABEL,
  type LeftPeopleNote,
  leftPeopleText,
} from "./left-people-note.js";
import type { ReportJob } from "./report-jobs.js";
import { type RosterCoverage, rosterAboutLines } from "./roster-coverage.js";
import type { RowRepeats } from "./row-repeats.js";
import { rowsText } from "./row-repeats.js";
import { type BoundQuery, reportParams } from "./run-query.js";

/**
 * When the data was loaded, by which run: the oldest of the tables read, then each run's tables
 * when different runs loaded them last; over several portals, each one's so (ids are its own),
 * its labels after ", portal NAME".
 */
function loadLines(loaded: Omit<LastLoad, "portals">, portal = ""): AboutLine[] {
  const none = "no successful extract recorded";
  return [
    { label: `Data loaded at (UTC)${portal}`, value: loaded.finishedAt ?? none },
    { label: `Extract run id${portal}`, value: loaded.runId ?? "none" },
    ...(loaded.tables ?? []).flatMap((t) => [
      {
        label: `Data loaded at (UTC)${portal}, ${t.tables.join(", ")}`,
        value: t.finishedAt ?? none,
      },
      { label: `Extract run id${portal}, ${t.tables.join(", ")}`, value: t.runId ?? "none" },
    ]),
  ];
}

/** What the About sheet of `job`'s workbook says, `rows` and `repeats` by query name. */
export function aboutLines(
  job: ReportJob,
  bound: readonly BoundQuery[],
  sheets: { rows: Record<string, number>; repeats: ReadonlyMap<string, RowRepeats> },
  loaded: LastLoad,
  options: {
    now: Date;
    neutralise: boolean;
    roster: RosterCoverage | undefined;
    leftPeople: readonly LeftPeopleNote[];
  },
): AboutLine[] {
  const lines: AboutLine[] = [
    { label: "Report", value: job.name },
    { label: "Title", value: job.title },
    ...(job.portal === undefined ? [] : [{ label: "Portal", value: job.portal }]),
    { label: "Description", value: job.description },
    ...(job.share === undefined ? [] : [{ label: "Rows", value: job.share }]),
    { label: "Generated at (UTC)", value: options.now },
    ...(loaded.portals
      ? loaded.portals.flatMap((p) => loadLines(p, `, portal ${p.portal}`))
      : loadLines(loaded)),
  ];
  for (const { name, text } of reportParams(bound)) {
    lines.push({ label: `Parameter ${name}`, value: text === "" ? "(none)" : text });
  }
  for (const b of bound) {
    const name = b.query.name;
    const count = rowsText(sheets.rows[name] ?? 0, sheets.repeats.get(name));
    lines.push({ label: `Sheet ${name}`, value: `${count}: ${b.query.title}` });
  }
  if (options.roster) lines.push(...rosterAboutLines(options.roster));
  for (const note of options.leftPeople) {
    const where = `Parameter ${EXCLUDED_STATUSES}`;
    lines.push({ label: LEFT_PEOPLE_LABEL, value: leftPeopleText(note, where) });
  }
  lines.push({
    label: "Formula neutralisation",
    value: options.neutralise
      ? "on: text starting with = + - @ tab CR LF gets a leading apostrophe"
      : "off",
  });
  return lines;
}
