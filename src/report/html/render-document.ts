/**
 * A report document as HTML, in two variants built from the same parts:
 * - the file: one self-contained page, a stylesheet in `<style>`, charts as inline SVG;
 * - the e-mail body: inline style attributes only (many mail clients drop `<style>`), charts as
 *   `<img src="cid:ID">`, with the SVGs returned under those Content-IDs for the mail to attach as
 *   PNG.
 * Every text is escaped.
 */
import { type ColumnKind, isNumberKind, isTimeKind } from "../present/column-kind.js";
import { isOverdue, overdueColumnIndex } from "../present/overdue.js";
import { repeatsText, rowsText } from "../row-repeats.js";
import { escapeHtml } from "./escape.js";
import { loadedText, utcText } from "./loaded-text.js";
import type { DocumentTable, ReportDocument } from "./report-document.js";
import { CLASS_NAMES, INLINE_STYLES, type Part, STYLESHEET } from "./styles.js";
import { columnFormatter } from "./value-format.js";

/** A chart of the e-mail variant, referenced in the body as `cid:` + `cid`. */
export interface EmailImage {
  /** `chart-1`, `chart-2`, ...: the image's name in the message, e.g. for its file name. */
  readonly name: string;
  readonly cid: string;
  readonly title: string;
  readonly svg: string;
  /** The `<img>`'s size: the SVG's, rounded to whole pixels. */
  readonly width: number;
  readonly height: number;
}

/** The e-mail variant: the body and the charts it references. */
export interface EmailReport {
  readonly html: string;
  readonly images: readonly EmailImage[];
}

/** The attribute giving an element the look of `parts` (one, or a cell's and what marks it). */
type Look = (...parts: Part[]) => string;

const fileLook: Look = (...parts) => {
  const names = parts.map((part) => CLASS_NAMES[part]).filter((name) => name !== "");
  return names.length === 0 ? "" : ` class="${names.join(" ")}"`;
};
const emailLook: Look = (...parts) =>
  ` style="${escapeHtml(parts.map((part) => INLINE_STYLES[part]).join(""))}"`;

/**
 * The settings a report ran with, one to a line with its value in bold: run on as one paragraph,
 * a report's ten settings were a block of text in which a reader could not find the one value
 * they looked for. The label says what a setting means; its name, for `--param`, is in the title.
 */
function settings(doc: ReportDocument, look: Look): string[] {
  if (doc.params.length === 0) return [`<p${look("meta")}>Settings: none</p>`];
  const items = doc.params.map(
    (p) =>
      `<li><span title="${escapeHtml(p.name)}">${escapeHtml(p.label)}</span>: <strong>${escapeHtml(p.value)}</strong></li>`,
  );
  return [`<p${look("meta")}>Settings:</p>`, `<ul${look("settings")}>${items.join("")}</ul>`];
}

function header(doc: ReportDocument, look: Look): string {
  const loaded = loadedText(doc);
  // Two portals' reports share title and date: the portal is what tells them apart.
  const portal =
    doc.portal === undefined ? [] : [`<p${look("meta")}>Portal: ${escapeHtml(doc.portal)}</p>`];
  return [
    `<h1${look("title")}>${escapeHtml(doc.title)}</h1>`,
    `<p${look("meta")}>${escapeHtml(doc.description)}</p>`,
    ...(doc.share === undefined ? [] : [`<p${look("meta")}>${escapeHtml(doc.share)}</p>`]),
    ...portal,
    `<p${look("meta")}>Data loaded: ${escapeHtml(loaded)} · generated ${escapeHtml(utcText(doc.generatedAt))}</p>`,
    ...settings(doc, look),
    // Rows of people the roster lacks have empty names: the page says why, as the About sheet does.
    ...(doc.roster === undefined ? [] : [`<p${look("meta")}>${escapeHtml(doc.roster)}</p>`]),
    // Totals short of the portal's people would read as wrong ones: the page says why.
    ...(doc.leftPeople === undefined
      ? []
      : [`<p${look("meta")}>${escapeHtml(doc.leftPeople)}</p>`]),
  ].join("\n");
}

function headlines(doc: ReportDocument, look: Look, email: boolean): string {
  if (doc.headlines.length === 0) return "";
  const cards = doc.headlines.map(
    (h) =>
      `<span${look("headlineValue")}>${escapeHtml(h.text)}</span><span${look("headlineLabel")}>${escapeHtml(h.label)}</span>`,
  );
  // Mail clients lay out tables reliably and flexbox hardly at all.
  if (email) {
    return `<table role="presentation"${look("headlines")}><tr>${cards.map((c) => `<td${look("headline")}>${c}</td>`).join("")}</tr></table>`;
  }
  return `<div${look("headlines")}>${cards.map((c) => `<div${look("headline")}>${c}</div>`).join("")}</div>`;
}

/**
 * Text no longer than this stays on one line. A browser gives a table's width to its columns by
 * their longest text: beside one column of long comments, every other text column was squeezed to
 * a word per line. Kept whole, the short columns stay readable and the long one wraps in the rest
 * (or the table's own box scrolls sideways).
 */
const SHORT_TEXT = 40;

function cellPart(kind: ColumnKind, texts: readonly string[]): Part {
  if (isNumberKind(kind)) return "tdNumber";
  if (isTimeKind(kind)) return "tdTime";
  return texts.every((text) => text.length <= SHORT_TEXT) ? "tdShort" : "td";
}

/** The line under a table's heading: how many rows it has and which of them are shown. */
type CountLine = (t: DocumentTable, shown: number) => string;

/** A count as the page writes it: 12,945. */
const count = (n: number) => n.toLocaleString("en");

function rowCount(t: DocumentTable): string {
  return `${rowsText(t.totalRows, t.repeats, count)}.`;
}

function firstRows(t: DocumentTable, shown: number): string {
  const repeats = t.repeats === undefined ? "" : `, ${repeatsText(t.repeats, count)},`;
  return `The first ${count(shown)} of ${count(t.totalRows)} rows${repeats} are shown`;
}

const fileCountLine: CountLine = (t, shown) =>
  t.totalRows > shown
    ? `${firstRows(t, shown)}. ${
        t.fullFile
          ? `Every row is in ${t.fullFile}, written with this page.`
          : "Write the report with --format xlsx or csv for every row."
      }`
    : rowCount(t);

/** The e-mail's count line: `fullFile` is then the attachment holding every row. */
export const emailCountLine: CountLine = (t, shown) =>
  t.totalRows > shown
    ? `${firstRows(t, shown)}; ${
        t.fullFile
          ? `the full list is attached: see ${t.fullFile}.`
          : "the full list is in the report's xlsx, csv or parquet files, none of them attached."
      }`
    : rowCount(t);

function table(t: DocumentTable, look: Look, count: CountLine, maxRows: number): string {
  const shown = t.rows.slice(0, Math.max(0, maxRows));
  const head = t.columns
    .map(
      (c) =>
        `<th scope="col"${look(isNumberKind(c.kind) ? "thNumber" : "th")}>${escapeHtml(c.label)}</th>`,
    )
    .join("");
  const texts = t.columns.map((c, i) => {
    const format = columnFormatter(c.name, c.kind, c.scale);
    return shown.map((row) => format(row[i] ?? null));
  });
  const parts = t.columns.map((c, i) => cellPart(c.kind, texts[i] ?? []));
  const opens = parts.map((part) => `<td${look(part)}>`);
  // The overdue rows, as the workbook's conditional format picks them (present/overdue.ts).
  const days = overdueColumnIndex(t.columns.map((c) => c.name));
  const marks = (i: number): Part[] => [
    ...(i === 0 ? (["tdOverdueStart"] as const) : []),
    ...(i === days ? (["tdOverdueDays"] as const) : []),
  ];
  const overdueOpens = parts.map((part, i) => `<td${look(part, ...marks(i))}>`);
  const body = shown
    .map((row, r) => {
      const overdue = days >= 0 && isOverdue(row[days]);
      const tds = (overdue ? overdueOpens : opens).map(
        (open, i) => `${open}${escapeHtml(texts[i]?.[r] ?? "")}</td>`,
      );
      return overdue ? `<tr${look("trOverdue")}>${tds.join("")}</tr>` : `<tr>${tds.join("")}</tr>`;
    })
    .join("\n");
  const id = `table-${escapeHtml(t.query)}`;
  return [
    `<h2${look("heading")} id="${id}">${escapeHtml(t.title)}</h2>`,
    `<p${look("note")}>${escapeHtml(count(t, shown.length))}</p>`,
    `<div${look("tableBox")}${look === fileLook ? scrollBox(id) : ""}><table${look("table")} aria-labelledby="${id}"><thead><tr>${head}</tr></thead><tbody>`,
    body,
    "</tbody></table></div>",
  ].join("\n");
}

/**
 * A box that scrolls sideways at phone width: without a tab stop a keyboard user cannot scroll it
 * (only some browsers make a scrolling box focusable by themselves), and a screen reader names the
 * region by its heading, not as an unnamed group.
 */
function scrollBox(headingId: string): string {
  return ` role="region" aria-labelledby="${headingId}" tabindex="0"`;
}

function notes(list: readonly string[], look: Look): string {
  return list.map((n) => `<p${look("note")}>${escapeHtml(n)}</p>`).join("");
}

function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
</head>
${body}
</html>
`;
}

/** The HTML file: self-contained, nothing fetched, no script. */
export function renderReportFile(doc: ReportDocument): string {
  const charts = doc.charts.map(
    (c, i) =>
      `<figure${fileLook("chart")}><h2${fileLook("heading")} id="chart-${i + 1}">${escapeHtml(c.title)}</h2><div class="chart-box"${scrollBox(`chart-${i + 1}`)}>${c.chart.svg}</div>${notes(c.notes, fileLook)}</figure>`,
  );
  const main = [
    header(doc, fileLook),
    headlines(doc, fileLook, false),
    ...charts,
    ...doc.tables.map((t) => table(t, fileLook, fileCountLine, t.rows.length)),
  ].join("\n");
  // Tabs of two portals' pages would read alike.
  const tab = doc.portal === undefined ? doc.title : `${doc.title} (${doc.portal})`;
  return page(
    tab,
    `<style>${STYLESHEET}</style>`,
    `<body>\n<main${fileLook("body")}>\n${main}\n</main>\n</body>`,
  );
}

/** What the e-mail variant cuts and adds. */
export interface EmailOptions {
  /** Rows shown per table (default all the document has); the attachments hold every row. */
  readonly maxRows?: number;
  /** Lines under the header, e.g. whose rows a message holds. */
  readonly lead?: readonly string[];
  /** Lines at the end, e.g. the files attached. */
  readonly foot?: readonly string[];
  /** The Content-ID of the image named `name` (src/mail/content-id.ts); default `name` itself. */
  readonly contentId?: (name: string) => string;
}

/**
 * The e-mail body: inline styles, no `<style>` or `<svg>`; each chart is an `<img>` whose `src`
 * is `cid:` and the Content-ID of one of the returned images (named `chart-1`, `chart-2`, ...).
 */
export function renderReportEmail(doc: ReportDocument, options: EmailOptions = {}): EmailReport {
  const contentId = options.contentId ?? ((name: string) => name);
  const images: EmailImage[] = doc.charts.map((c, i) => ({
    name: `chart-${i + 1}`,
    cid: contentId(`chart-${i + 1}`),
    title: c.title,
    svg: c.chart.svg,
    // The `<img>`'s size: HTML wants whole pixels, and a chart's SVG may be 585.2 high.
    width: Math.round(c.chart.width),
    height: Math.round(c.chart.height),
  }));
  const charts = doc.charts.map((c, i) => {
    const image = images[i] as EmailImage;
    return `<div${emailLook("chart")}><h2${emailLook("heading")}>${escapeHtml(c.title)}</h2><img src="cid:${escapeHtml(image.cid)}" alt="${escapeHtml(c.title)}" width="${image.width}" height="${image.height}" style="display:block;max-width:100%;height:auto;border:0;">${notes(c.notes, emailLook)}</div>`;
  });
  const lines = (list: readonly string[] | undefined) =>
    (list ?? []).map((line) => `<p${emailLook("meta")}>${escapeHtml(line)}</p>`);
  const main = [
    header(doc, emailLook),
    ...lines(options.lead),
    headlines(doc, emailLook, true),
    ...charts,
    ...doc.tables.map((t) =>
      table(t, emailLook, emailCountLine, options.maxRows ?? Number.POSITIVE_INFINITY),
    ),
    ...lines(options.foot),
  ].join("\n");
  return { html: page(doc.title, "", `<body${emailLook("body")}>\n${main}\n</body>`), images };
}
