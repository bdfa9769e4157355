/**
 * The message body of a report mail: the HTML report's e-mail rendering (title, when the data was
 * loaded, headline figures, charts as inline PNG images referenced by `cid:`, the tables' first
 * rows with a line naming the attachment that has them all) and its plain-text alternative.
 *
 * This module is the one place the body is made: a renderer with the same signature replaces
 * `renderMailBody` without touching the sending code.
 */
import { renderReportEmail } from "../report/html/render-document.js";
import type { ReportDocument } from "../report/html/report-document.js";
import { renderReportText } from "./body-text.js";
import { chartPng } from "./chart-png.js";
import { messageContentIds } from "./content-id.js";

/** What a body says. */
export interface MailBodyInput {
  /**
   * The report as this message's recipient sees it: for a split message, built from that
   * recipient's rows only. A table's `fullFile` names the attachment holding all its rows.
   */
  document: ReportDocument;
  /** For a split message: a line saying whose rows these are. */
  scope?: string;
  /** File names attached. */
  attachments: string[];
}

/** An image the HTML shows with `<img src="cid:ID">`. */
export interface InlineImage {
  /** Its Content-ID without the angle brackets (content-id.ts). */
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

/** The most rows a body shows per table; the attachments have them all. */
export const MAX_BODY_ROWS = 50;

/** The fewest rows per table a body is cut to, however large it comes out. */
export const MIN_BODY_ROWS = 10;

/**
 * The most bytes of HTML a body should hold: Gmail shows about 102 KB of a message's HTML and
 * hides the rest behind a "View entire message" link, which most readers never follow.
 */
export const BODY_HTML_BUDGET = 100_000;

/**
 * The e-mail variant at {@link MAX_BODY_ROWS} rows a table, or at half as many again and again
 * (down to {@link MIN_BODY_ROWS}) while its HTML is over {@link BODY_HTML_BUDGET}: a report of
 * six wide tables is otherwise clipped where a narrow one is not.
 */
function budgetedEmail(
  document: MailBodyInput["document"],
  parts: { lead: string[]; foot: string[]; contentId: (name: string) => string },
) {
  let maxRows = MAX_BODY_ROWS;
  for (;;) {
    const email = renderReportEmail(document, { maxRows, ...parts });
    if (Buffer.byteLength(email.html) <= BODY_HTML_BUDGET || maxRows <= MIN_BODY_ROWS) {
      return { email, maxRows };
    }
    maxRows = Math.max(MIN_BODY_ROWS, Math.floor(maxRows / 2));
  }
}

/** The default renderer: the HTML report's e-mail variant, its charts as PNG, and the text. */
export const renderMailBody: MailBodyRenderer = (input) => {
  const lead = input.scope === undefined ? [] : [input.scope];
  const foot = input.attachments.length > 0 ? [`Attached: ${input.attachments.join(", ")}`] : [];
  const contentId = messageContentIds();
  const { email, maxRows } = budgetedEmail(input.document, { lead, foot, contentId });
  const options = { maxRows, lead, foot };
  const inline = email.images.map((image) => ({
    cid: image.cid,
    filename: `${image.name}.png`,
    contentType: "image/png",
    content: chartPng(image.svg),
  }));
  return { html: email.html, text: renderReportText(input.document, options), inline };
};
