/**
 * The plain-text part writes a table one row to a line: a value holding a line break (a name
 * typed with Alt+Enter, Unicode's line separator) cut its row in two, the second half read as a
 * row of its own under the wrong columns. It is a space there, as the HTML part shows it. A
 * control character is U+FFFD, as in the HTML part: an escape in a name reached a terminal mail
 * reader as the start of a terminal command.
 */
import { expect, test } from "vitest";
import { renderMailBody } from "../../src/mail/body.js";
import { peopleDocument } from "./mail-document.js";

const BREAKS = ["\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", "\v", "\f"];

const document = peopleDocument(
  [
    ["user_id", "User ID"],
    ["lastname", "Last\nname"],
    ["team", "Team"],
  ],
  BREAKS.map((b, i) => [String(i + 1), `Mac${b}Donald`, "North"]),
);

test("each row of a table is one line of the text part, a line break in a value a space", () => {
  const { text } = renderMailBody({ document, attachments: [] });
  const rows = BREAKS.map((_, i) => `${i + 1} | Mac Donald | North`);
  expect(text).toContain(`\n${rows.join("\n")}\n`);
  expect(text).toContain("\nUser ID | Last name | Team\n1 | ");
  expect(text).not.toMatch(/[\r\v\f\u0085\u2028\u2029]/);
});

test("a control character in a value is U+FFFD in the text part, as in the HTML part", () => {
  const red = peopleDocument([["lastname", "Last name"]], [["Mac\u001b[31mDonald\u0007"]]);
  const { text, html } = renderMailBody({ document: red, attachments: [] });
  expect(text).toContain("\nMac\uFFFD[31mDonald\uFFFD\n");
  expect(html).toContain(">Mac\uFFFD[31mDonald\uFFFD<");
  expect(text).not.toMatch(/[\u0000-\u0008\u000e-\u001f]/);
});

test("DEL and the C1 controls (U+009B starts a terminal command alone) are U+FFFD in the text part", () => {
  const csi = peopleDocument([["lastname", "Last name"]], [["Mac\u009b31mDonald\u007f\u0090"]]);
  const { text } = renderMailBody({ document: csi, attachments: [] });
  expect(text).toContain("\nMac\uFFFD31mDonald\uFFFD\uFFFD\n");
  expect(text).not.toMatch(/[\u007f-\u009f]/);
});
