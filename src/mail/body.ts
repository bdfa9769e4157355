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
export const MAX_BODY_ROWS = 200;

/** The default renderer: the HTML report's e-mail variant, its charts as PNG, and the text. */
export const renderMailBody: MailBodyRenderer = (input) => {
  const lead = input.scope === undefined ? [] : [input.scope];
  const foot = input.attachments.length > 0 ? [`Attached: ${input.attachments.join(", ")}`] : [];
  const options = { maxRows: MAX_BODY_ROWS, lead, foot };
  const email = renderReportEmail(input.document, options);
  const inline = email.images.map((image) => ({
    cid: image.cid,
    filename: `${image.cid}.png`,
    contentType: "image/png",
    content: chartPng(image.svg),
  }));
  return { html: email.html, text: renderReportText(input.document, options), inline };
};
