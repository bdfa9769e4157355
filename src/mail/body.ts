/**
 * The message body: an HTML part that mail clients show as written (tables, inline styles, no
 * scripts, no external images) and its plain-text alternative.
 *
 * This module is the one place the body is made: a renderer with the same signature (for
 * example one that adds charts as `inline` images referenced by `cid:`) replaces
 * `renderMailBody` without touching the sending code.
 */

/** A table of the first query's rows, already cut to what the body shows. */
export interface BodyTable {
  /** Column labels a person reads, in order. */
  labels: string[];
  /** Cell texts, one array per row, as many as `labels`. */
  rows: string[][];
  /** Rows the query returned in all (the body may show fewer). */
  totalRows: number;
}

/** What a body says. */
export interface MailBodyInput {
  title: string;
  description: string;
  /** When the report was made. */
  generatedAt: Date;
  /** When the data was loaded from the portal (the last successful extract), if known. */
  loadedAt: Date | null;
  /** For a split message: whose rows these are (e.g. "Manager email alice@example.com"). */
  scope?: string;
  /** Rows per query of this message's files, in the report's order. */
  counts: { query: string; title: string; rows: number }[];
  table: BodyTable;
  /** File names attached. */
  attachments: string[];
}

/** An image the HTML shows with `<img src="cid:ID">`. */
export interface InlineImage {
  cid: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailBody {
  html: string;
  text: string;
  inline: InlineImage[];
}

export type MailBodyRenderer = (input: MailBodyInput) => MailBody;

/** The most rows a body shows; the attachment has them all. */
export const MAX_BODY_ROWS = 200;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

function when(date: Date | null): string {
  return date === null
    ? "no successful extract recorded"
    : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The lines both parts share: what the report is, whose rows, and how fresh the data is. */
function headLines(input: MailBodyInput): string[] {
  const lines = [input.description];
  if (input.scope !== undefined) lines.push(`Rows: ${input.scope}.`);
  lines.push(`Data loaded ${when(input.loadedAt)}; report made ${when(input.generatedAt)}.`);
  for (const c of input.counts)
    lines.push(`${c.title}: ${c.rows} ${c.rows === 1 ? "row" : "rows"}`);
  return lines;
}

function moreLine(input: MailBodyInput): string | undefined {
  const { rows, totalRows } = input.table;
  if (rows.length >= totalRows) return undefined;
  const files = input.attachments.length > 0 ? `: see ${input.attachments.join(", ")}` : "";
  return `The first ${rows.length} of ${totalRows} rows are shown; the full list is attached${files}.`;
}

const CELL = "border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top";

function htmlTable(table: BodyTable): string {
  if (table.totalRows === 0) return "<p>No rows.</p>";
  const head = table.labels.map(
    (l) => `<th style="${CELL};background:#f3f4f6">${escapeHtml(l)}</th>`,
  );
  const body = table.rows.map(
    (row) =>
      `<tr>${row.map((cell) => `<td style="${CELL}">${escapeHtml(cell)}</td>`).join("")}</tr>`,
  );
  return [
    '<table cellpadding="0" cellspacing="0" style="border-collapse:collapse;font-size:13px">',
    `<thead><tr>${head.join("")}</tr></thead>`,
    `<tbody>${body.join("\n")}</tbody>`,
    "</table>",
  ].join("\n");
}

function textTable(table: BodyTable): string {
  if (table.totalRows === 0) return "No rows.";
  return [table.labels, ...table.rows].map((row) => row.join(" | ")).join("\n");
}

/** The default renderer: title, freshness, counts, the first rows as a table, the attachments. */
export const renderMailBody: MailBodyRenderer = (input) => {
  const head = headLines(input);
  const more = moreLine(input);
  const files =
    input.attachments.length > 0 ? `Attached: ${input.attachments.join(", ")}` : undefined;
  const html = [
    "<!DOCTYPE html>",
    '<html><head><meta charset="utf-8"><title>',
    escapeHtml(input.title),
    '</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2328">',
    `<h1 style="font-size:20px">${escapeHtml(input.title)}</h1>`,
    ...head.map((line) => `<p style="margin:4px 0">${escapeHtml(line)}</p>`),
    htmlTable(input.table),
    ...(more === undefined ? [] : [`<p>${escapeHtml(more)}</p>`]),
    ...(files === undefined ? [] : [`<p style="color:#57606a">${escapeHtml(files)}</p>`]),
    "</body></html>",
  ].join("\n");
  const text = [
    input.title,
    "=".repeat(Math.min(input.title.length, 72)),
    ...head,
    "",
    textTable(input.table),
    ...(more === undefined ? [] : ["", more]),
    ...(files === undefined ? [] : ["", files]),
    "",
  ].join("\n");
  return { html, text, inline: [] };
};
