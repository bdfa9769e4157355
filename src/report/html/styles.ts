/**
 * How the report looks: a stylesheet for the HTML file (screen, phone width and print), and the
 * same looks as inline style attributes for e-mail, where many clients drop `<style>` elements.
 */

/** Parts of the page that carry a look. */
export type Part =
  | "body"
  | "title"
  | "heading"
  | "meta"
  | "settings"
  | "headlines"
  | "headline"
  | "headlineValue"
  | "headlineLabel"
  | "chart"
  | "note"
  | "tableBox"
  | "table"
  | "th"
  | "thNumber"
  | "td"
  | "tdShort"
  | "tdNumber"
  | "tdTime"
  | "trOverdue"
  | "tdOverdueStart"
  | "tdOverdueDays";

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** Inline styles per part (e-mail). */
export const INLINE_STYLES: Readonly<Record<Part, string>> = {
  body: `margin:0;padding:16px;font-family:${FONT};color:#1b1f24;background:#ffffff;`,
  title: "margin:0 0 4px;font-size:22px;",
  heading: "margin:24px 0 8px;font-size:17px;",
  meta: "margin:4px 0;font-size:13px;color:#57606a;",
  settings: "margin:0 0 4px;padding-left:20px;font-size:13px;color:#57606a;",
  headlines: "width:100%;border-collapse:separate;border-spacing:8px;margin:8px -8px;",
  headline: "padding:10px 14px;border:1px solid #d0d7de;border-radius:6px;background:#f6f8fa;",
  headlineValue: "display:block;font-size:22px;font-weight:bold;",
  headlineLabel: "display:block;font-size:12px;color:#57606a;",
  chart: "margin:8px 0 16px;",
  note: "margin:4px 0;font-size:12px;color:#57606a;",
  tableBox: "overflow-x:auto;",
  table: `border-collapse:collapse;font-family:${FONT};font-size:13px;`,
  th: "text-align:left;padding:4px 8px;border-bottom:2px solid #d0d7de;background:#f6f8fa;white-space:nowrap;",
  thNumber:
    "text-align:right;padding:4px 8px;border-bottom:2px solid #d0d7de;background:#f6f8fa;white-space:nowrap;",
  // Cells are most of a mail's bytes: only what differs from a cell's defaults (left, middle).
  td: "padding:3px 8px;border-bottom:1px solid #eaeef2;overflow-wrap:anywhere;min-width:12em;",
  tdShort: "padding:3px 8px;border-bottom:1px solid #eaeef2;white-space:nowrap;",
  tdNumber: "padding:3px 8px;border-bottom:1px solid #eaeef2;text-align:right;white-space:nowrap;",
  tdTime: "padding:3px 8px;border-bottom:1px solid #eaeef2;white-space:nowrap;",
  // Added to a cell's own look. Not by colour alone: the bar and the bold figure print and read
  // without it.
  trOverdue: "background:#ffebe9;",
  tdOverdueStart: "border-left:4px solid #cf222e;",
  tdOverdueDays: "font-weight:bold;",
};

/** Class names per part (the HTML file). */
export const CLASS_NAMES: Readonly<Record<Part, string>> = {
  body: "report",
  title: "title",
  heading: "heading",
  meta: "meta",
  settings: "settings",
  headlines: "headlines",
  headline: "headline",
  headlineValue: "headline-value",
  headlineLabel: "headline-label",
  chart: "chart",
  note: "note",
  tableBox: "table-box",
  table: "data",
  th: "",
  thNumber: "num",
  td: "long",
  tdShort: "short",
  tdNumber: "num",
  tdTime: "time",
  trOverdue: "overdue",
  tdOverdueStart: "overdue-start",
  tdOverdueDays: "overdue-days",
};

/** The stylesheet of the HTML file. */
export const STYLESHEET = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font-family: ${FONT}; color: #1b1f24; background: #ffffff; }
.report { max-width: 1200px; margin: 0 auto; padding: 16px; }
.title { margin: 0 0 4px; font-size: 1.6rem; }
.heading { margin: 28px 0 8px; font-size: 1.15rem; }
.meta { margin: 4px 0; font-size: 0.85rem; color: #57606a; }
.settings { margin: 0 0 4px; padding-left: 20px; font-size: 0.85rem; color: #57606a; }
.settings strong { color: #1b1f24; font-weight: 600; }
.headlines { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.headline { padding: 10px 14px; border: 1px solid #d0d7de; border-radius: 6px; background: #f6f8fa; min-width: 140px; }
.headline-value { display: block; font-size: 1.5rem; font-weight: bold; }
.headline-label { display: block; font-size: 0.8rem; color: #57606a; }
.chart { margin: 8px 0 20px; }
.chart svg { display: block; max-width: 100%; height: auto; }
.chart-box { overflow-x: auto; max-width: 100%; }
.note { margin: 4px 0; font-size: 0.8rem; color: #57606a; }
.table-box { overflow-x: auto; max-width: 100%; border: 1px solid #eaeef2; }
table.data { border-collapse: collapse; font-size: 0.82rem; }
table.data th { text-align: left; padding: 4px 8px; border-bottom: 2px solid #d0d7de; background: #f6f8fa; white-space: nowrap; position: sticky; top: 0; }
table.data td { padding: 3px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
/* A long text with no space to break at (a name of 5,000 letters) would make its column as wide
   as the text, and push every other column thousands of pixels away; it breaks anywhere instead.
   Breaking anywhere would also let the table squeeze a column of long sentences to a few letters
   a line beside it, so such a column keeps 12em. A column of short texts stays on one line. */
table.data td.long { overflow-wrap: anywhere; min-width: 12em; }
table.data .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.data .short { white-space: nowrap; }
table.data .time { white-space: nowrap; font-variant-numeric: tabular-nums; }
table.data tbody tr:nth-child(even) { background: #fafbfc; }
/* An overdue row (days_overdue above 0, as the workbook highlights it): a tint, a bar at its
   start and its days in bold, so it stands out in print and without colour too. */
table.data tbody tr.overdue { background: #ffebe9; }
table.data td.overdue-start { border-left: 4px solid #cf222e; }
table.data td.overdue-days { font-weight: bold; }
@media (max-width: 600px) {
  .report { padding: 8px; }
  .title { font-size: 1.3rem; }
  .headline { flex: 1 1 40%; min-width: 0; }
  /* Shrunk to a phone's width a chart's labels would be a few pixels high: it keeps its drawn
     size and scrolls in its own box, as tables do. */
  .chart svg { max-width: none; }
}
/* A reader whose screen is set dark (a phone at night) gets a dark page: light text on dark
   grounds, every pair at least 4.5:1 as the light page has them. The charts stay light panels:
   their colours are drawn for the white ground their own SVG carries. Screens only: paper stays
   light. */
@media screen and (prefers-color-scheme: dark) {
  :root { color-scheme: dark; }
  body { color: #e6edf3; background: #0d1117; }
  .meta, .settings, .note, .headline-label { color: #9ea7b3; }
  .settings strong { color: #e6edf3; }
  .headline { border-color: #3d444d; background: #151b23; }
  .table-box { border-color: #3d444d; }
  table.data th { border-bottom-color: #3d444d; background: #151b23; }
  table.data td { border-bottom-color: #262c36; }
  table.data tbody tr:nth-child(even) { background: #11161d; }
  table.data tbody tr.overdue { background: #3b1719; }
  table.data td.overdue-start { border-left-color: #f85149; }
  /* The chart's text is drawn in currentColor: kept dark on the panel's white. */
  .chart svg { color: #1b1f24; background: #ffffff; border-radius: 4px; }
}
@media print {
  .report { max-width: none; padding: 0; }
  .table-box { overflow: visible; border: none; }
  table.data { font-size: 8pt; }
  table.data th { position: static; }
  /* Paper does not scroll: a wide table wraps its text again. */
  table.data .short { white-space: normal; }
  thead { display: table-header-group; }
  tr, .chart, .headline { break-inside: avoid; }
  .heading { break-after: avoid; }
}
`;
