/**
 * What an HTML report shows, independent of how it is delivered (a file, or an e-mail body):
 * the title, its portal, when the data was loaded, the parameters, headline figures, charts and
 * tables.
 */
import type { ColumnKind, ShownValue } from "../present/column-kind.js";
import type { SettingText } from "../present/setting-text.js";
import type { RowRepeats } from "../row-repeats.js";
import type { ChartSvg } from "./chart-svg.js";

/** One headline figure, formatted. */
export interface Headline {
  readonly label: string;
  readonly text: string;
}

/** A rendered chart with its heading and notes on what it leaves out. */
export interface DocumentChart {
  readonly title: string;
  readonly chart: ChartSvg;
  readonly notes: readonly string[];
}

/** A table column: its SQL name, the label a person reads, and how its values are shown. */
export interface TableColumn {
  readonly name: string;
  readonly label: string;
  readonly kind: ColumnKind;
  /** A DECIMAL column's places after the point, up to 15 (other numbers show two). */
  readonly scale?: number;
}

/** One query as a table: its first rows, and how many it has in all. */
export interface DocumentTable {
  readonly query: string;
  readonly title: string;
  readonly columns: readonly TableColumn[];
  readonly rows: readonly (readonly ShownValue[])[];
  readonly totalRows: number;
  /** How the rows repeat the query's items, when they do (one per manager of each person). */
  readonly repeats?: RowRepeats;
  /** The file of the same run that holds every row (a file name), when there is one. */
  readonly fullFile?: string;
}

/** Tables last loaded by one run ("take", or "others" for the run of the most), and when. */
export interface TablesLoaded {
  readonly tables: string;
  readonly at: Date | null;
}

/** A whole report. */
export interface ReportDocument {
  readonly title: string;
  readonly description: string;
  /** The portal of the config file the report is about (--portal), if one is named. */
  readonly portal?: string;
  /** For one recipient's copy of a split report, which rows it holds (ReportJob's `share`). */
  readonly share?: string;
  readonly generatedAt: Date;
  /**
   * When the data was loaded: the oldest of the last successful loads of the tables the report
   * reads, or null when none is recorded; over several portals, the oldest portal's (null when
   * one has none).
   */
  readonly loadedAt: Date | null;
  /**
   * One portal whose tables were last loaded by different runs: each run's tables ("take", or
   * "others" for the run of the most) and when it finished, newest first.
   */
  readonly loadedByTables?: readonly TablesLoaded[];
  /**
   * Over several portals, when each one's data was loaded, with its runs' tables as
   * `loadedByTables` gives them for one portal when different runs loaded them.
   */
  readonly loadedByPortal?: readonly {
    readonly portal: string;
    readonly at: Date | null;
    readonly tables?: readonly TablesLoaded[];
  }[];
  /** How the roster covers the data, when the report shows names: the About sheet's lines. */
  readonly roster?: string;
  /** Whom the queries left out as gone (excluded_statuses), as the About sheet says it. */
  readonly leftPeople?: string;
  /** The query parameters, for reading (present/setting-text.ts). */
  readonly params: readonly SettingText[];
  readonly headlines: readonly Headline[];
  readonly charts: readonly DocumentChart[];
  readonly tables: readonly DocumentTable[];
}
