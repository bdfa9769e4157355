/**
 * The HTML report of one report run: each query streamed once (its table's first rows, its
 * charts' rows, the summary's overall row), then the document built and written as one file.
 */
import { writeFile } from "node:fs/promises";
import { checkSignal, interruptOnAbort } from "../interruption.js";
import type { LastLoad, TablesLoad } from "../last-load.js";
import { LEFT_PEOPLE_LABEL, type LeftPeopleNote, leftPeopleText } from "../left-people-note.js";
import { type PreparedJob, prepareJob } from "../prepare-job.js";
import { columnLabel } from "../present/column-label.js";
import { type SettingText, settingText } from "../present/setting-text.js";
import type { ReportJob } from "../report-jobs.js";
import type { ReportSource } from "../report-source.js";
import { type RosterCoverage, rosterAboutLines } from "../roster-coverage.js";
import { type RowRepeats, rowRepeats } from "../row-repeats.js";
import { type BoundQuery, reportParams, streamQuery } from "../run-query.js";
import { sqlError } from "../sql-error.js";
import { ChartCollector } from "./chart-data.js";
import type { ChartSpec } from "./chart-spec.js";
import { type CollectedQuery, collectQuery } from "./collect-query.js";
import { renderReportFile } from "./render-document.js";
import type { DocumentChart, Headline, ReportDocument, TablesLoaded } from "./report-document.js";
import { formatValue } from "./value-format.js";

/** The query whose `scope = 'overall'` row gives the headline figures. */
export const SUMMARY_QUERY = "compliance-summary";
/** Headline figures, in order; those the summary query has are shown. */
export const HEADLINE_COLUMNS = ["completion_rate", "overdue", "failed", "expiring"] as const;

/** What the document is built from besides the data. */
export interface HtmlReportInput {
  readonly job: Pick<ReportJob, "title" | "description" | "charts" | "portal" | "share">;
  readonly bound: readonly BoundQuery[];
  readonly loaded: LastLoad;
  /** How the roster covers the data, when the report shows names (as the About sheet says it). */
  readonly roster?: RosterCoverage | undefined;
  /** Whom the queries left out as gone (as the About sheet says it); none for a share. */
  readonly leftPeople?: readonly LeftPeopleNote[];
  readonly now: Date;
  /** The file of the same run holding every row of a query (a file name), if any. */
  readonly fullFileOf: (query: string) => string | undefined;
  /** Stops the queries (between chunks of rows, and DuckDB's running statement) once it fires. */
  readonly signal?: AbortSignal;
}

/** A chart's heading: its own title, or what it shows by what (in the query's `labels`). */
export function chartTitle(chart: ChartSpec, labels?: ReadonlyMap<string, string>): string {
  if (chart.title) return chart.title;
  const label = (name: string) => columnLabel(name, labels);
  if (chart.type === "heatmap") {
    return `${label(chart.value)} by ${label(chart.y)} and ${label(chart.x)}`;
  }
  return `${chart.y.map(label).join(", ")} by ${label(chart.x)}`;
}

/** The headline figures: of the overall row, or of each portal's, named with the portal. */
function headlines(
  collected: CollectedQuery | undefined,
  labels: ReadonlyMap<string, string> | undefined,
): Headline[] {
  if (!collected) return [];
  const several = collected.overall.length > 1;
  return collected.overall.flatMap((overall) =>
    HEADLINE_COLUMNS.filter((name) => name in overall).map((name) => ({
      label: several
        ? `${String(overall.portal)} · ${columnLabel(name, labels)}`
        : columnLabel(name, labels),
      text:
        formatValue(
          overall[name] ?? null,
          collected.kinds.get(name) ?? "text",
          collected.scales.get(name),
        ) || "–",
    })),
  );
}

/** Each parameter once, described as its first query's header describes it. */
function params(bound: readonly BoundQuery[]): SettingText[] {
  return reportParams(bound).map((param) => settingText(param, param.text));
}

/**
 * Streams each query once (on a connection of its own: a stream ends if its connection runs
 * anything else), feeding the charts drawn from it; answers what each gathered, by query name,
 * and puts in `repeats` how the rows of those that repeat their items do (row-repeats.ts).
 */
async function collectAll(
  db: ReportSource,
  input: HtmlReportInput,
  collectors: readonly ChartCollector[],
  repeats: Map<string, RowRepeats>,
): Promise<Map<string, CollectedQuery>> {
  const collected = new Map<string, CollectedQuery>();
  const { signal } = input;
  for (const b of input.bound) {
    checkSignal(signal, `query ${b.query.name}`);
    const reader = await db.connect();
    const unwatch = interruptOnAbort(signal, reader);
    try {
      const charts = collectors.filter((c) => c.chart.query === b.query.name);
      collected.set(
        b.query.name,
        await streamQuery(reader, b, (result, atEnd) =>
          collectQuery(result, charts, {
            wantOverall: b.query.name === SUMMARY_QUERY,
            queryError: (error) => sqlError(error, b.query.file, "run"),
            atEnd,
            ...(signal ? { signal } : {}),
          }),
        ),
      );
      // Read to the end: the connection may run the count of the items its rows repeat.
      const total = collected.get(b.query.name)?.totalRows ?? 0;
      const found = await rowRepeats(reader, b, total);
      if (found) repeats.set(b.query.name, found);
    } finally {
      unwatch();
      reader.closeSync();
    }
  }
  return collected;
}

/**
 * The About sheet's roster lines as one line of the page: "Roster: 490 people · People not in the
 * roster: 10", so a reader of the page learns why some rows have no name.
 */
function rosterText(coverage: RosterCoverage): string {
  return rosterAboutLines(coverage)
    .map((line) => `${line.label}: ${String(line.value)}`)
    .join(" · ");
}

/**
 * The About sheet's lines on people left out as gone as one line of the page, pointing to the
 * Settings line above it, where the page shows the parameter by what it means.
 */
function leftPeopleLine(notes: readonly LeftPeopleNote[]): string | undefined {
  if (notes.length === 0) return undefined;
  return notes
    .map((note) => `${LEFT_PEOPLE_LABEL}: ${leftPeopleText(note, "Settings")}`)
    .join(" · ");
}

/** Each run's tables, as the document names them: the run of the most as "others". */
function tablesLoaded(runs: readonly TablesLoad[]): TablesLoaded[] {
  return runs.map((t) => ({ tables: t.others ? "others" : t.tables.join(", "), at: t.finishedAt }));
}

/** When the data was loaded, as the document gives it (loaded-text.ts). */
function loadedFields(
  loaded: LastLoad,
): Pick<ReportDocument, "loadedAt" | "loadedByTables" | "loadedByPortal"> {
  const byPortal = loaded.portals?.map((p) => ({
    portal: p.portal,
    at: p.finishedAt,
    ...(p.tables ? { tables: tablesLoaded(p.tables) } : {}),
  }));
  return {
    loadedAt: loaded.finishedAt,
    ...(loaded.tables ? { loadedByTables: tablesLoaded(loaded.tables) } : {}),
    ...(byPortal ? { loadedByPortal: byPortal } : {}),
  };
}

/** Runs the queries and builds the document. Answers it with the row count of each query. */
export async function buildReportDocument(
  db: ReportSource,
  input: HtmlReportInput,
): Promise<{ document: ReportDocument; rows: Record<string, number> }> {
  const byPortal = (db.portals?.scopes.length ?? 0) > 1;
  // A chart is drawn only from a query the document holds: a recipient's share leaves out the
  // queries without the split column, and a chart of one said "No rows to draw." under its
  // heading, which reads as "nobody is overdue".
  const held = new Set(input.bound.map((b) => b.query.name));
  const collectors = input.job.charts
    .filter((chart) => held.has(chart.query))
    .map((chart) => new ChartCollector(chart, { byPortal }));
  const repeats = new Map<string, RowRepeats>();
  const collected = await collectAll(db, input, collectors, repeats);
  const labelsOf = new Map(input.bound.map((b) => [b.query.name, b.query.labels]));
  // Loaded when a report draws: the chart library and its DOM are a third of a second of every
  // command's start.
  const { renderChartSvg } = await import("./chart-svg.js");
  const charts: DocumentChart[] = collectors.map((collector, i) => {
    const query = collected.get(collector.chart.query);
    const labels = labelsOf.get(collector.chart.query);
    const data = collector.result(query?.kinds ?? new Map(), labels, query?.scales);
    const title = chartTitle(collector.chart, labels);
    return {
      title,
      chart: renderChartSvg(collector.chart, data, { id: `chart-${i + 1}`, label: title }),
      notes: data.notes,
    };
  });
  const rows: Record<string, number> = {};
  const tables = input.bound.map((b) => {
    const c = collected.get(b.query.name) as CollectedQuery;
    rows[b.query.name] = c.totalRows;
    const fullFile = input.fullFileOf(b.query.name);
    const repeated = repeats.get(b.query.name);
    return {
      query: b.query.name,
      title: b.query.title,
      columns: c.columns.map((col) => ({ ...col, label: columnLabel(col.name, b.query.labels) })),
      rows: c.rows,
      totalRows: c.totalRows,
      ...(repeated ? { repeats: repeated } : {}),
      ...(fullFile ? { fullFile } : {}),
    };
  });
  const leftPeople = leftPeopleLine(input.leftPeople ?? []);
  const document: ReportDocument = {
    title: input.job.title,
    description: input.job.description,
    ...(input.job.portal === undefined ? {} : { portal: input.job.portal }),
    ...(input.job.share === undefined ? {} : { share: input.job.share }),
    generatedAt: input.now,
    ...loadedFields(input.loaded),
    ...(input.roster ? { roster: rosterText(input.roster) } : {}),
    ...(leftPeople === undefined ? {} : { leftPeople }),
    params: params(input.bound),
    headlines: headlines(collected.get(SUMMARY_QUERY), labelsOf.get(SUMMARY_QUERY)),
    charts,
    tables,
  };
  return { document, rows };
}

/**
 * The document of `job` on its own, for a caller that sends it rather than writes it (e-mail):
 * binds the job's queries, checks its charts' columns and reads when the data was loaded, then
 * builds it. `fullFileOf` names files of the same delivery that hold every row (default none).
 */
export async function reportDocumentForJob(
  db: ReportSource,
  job: ReportJob,
  options: { now: Date; fullFileOf?: (query: string) => string | undefined },
): Promise<ReportDocument> {
  const connection = await db.connect();
  let prepared: PreparedJob;
  try {
    prepared = await prepareJob(db, connection, job);
  } finally {
    connection.closeSync();
  }
  const { bound, loaded } = prepared;
  const input = { job, bound, loaded, now: options.now, fullFileOf: options.fullFileOf ?? none };
  return (await buildReportDocument(db, input)).document;
}

const none = () => undefined;

/** Writes the HTML file of a report run to `path`; answers the row count of each query. */
export async function writeHtmlReport(
  db: ReportSource,
  path: string,
  input: HtmlReportInput,
): Promise<Record<string, number>> {
  const { document, rows } = await buildReportDocument(db, input);
  await writeFile(path, renderReportFile(document), "utf8");
  return rows;
}
