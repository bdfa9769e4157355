/**
 * The plain-text part lays each table row out as one line, so the Unicode bidirectional
 * algorithm ran across its cells: an Arabic first and last name side by side were drawn as one
 * right-to-left run, the last name under the first name's column, and a right-to-left override
 * in a name (U+202E) turned the rest of the row around. Each such cell is isolated now: the text
 * part is drawn in a real headless Chromium, as a mail program shows text, and where each name
 * lands is measured. Skipped (and said so) only when /usr/bin/chromium is absent.
 */
import { expect, test } from "vitest";
import { renderMailBody } from "../../src/mail/body.js";
import { describeInChromium } from "../helpers/chromium.js";
import { peopleDocument } from "./mail-document.js";

const ROWS = [
  ["محمد", "العلي", "North"],
  ["אברהם", "כהן", "South"],
  // An override, and an isolate's end that would close the cell's isolate early.
  ["\u202Eevil", "\u2069Mac", "West"],
];

const people = peopleDocument(
  [
    ["firstname", "First name"],
    ["lastname", "Last name"],
    ["team", "Team"],
  ],
  ROWS,
);

/** Draws `text` in a <pre> and answers the left edge of each word's first character. */
const LEFT_EDGES = (text: string, words: readonly string[]) => `(() => {
  const pre = document.createElement("pre");
  pre.textContent = ${JSON.stringify(text)};
  document.body.append(pre);
  const node = pre.firstChild;
  return ${JSON.stringify(words)}.map((word) => {
    const at = node.data.indexOf(word);
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect().left;
  });
})()`;

describeInChromium("the text part's right-to-left cells", (browser) => {
  test("each cell keeps its column and its neighbours' direction", async () => {
    const { text } = renderMailBody({ document: people, attachments: [] });
    const page = await browser().newPage();
    await page.setContent("<body></body>");
    const words = ROWS.flat().map((w) => w.replace(/[\u202E\u2069]/, ""));
    const edges = (await page.evaluate(LEFT_EDGES(text, words))) as number[];
    await page.close();
    // A right-to-left name's first character is its rightmost; the names do not overlap, so
    // their first characters' order on screen is the names' order.
    for (let row = 0; row < ROWS.length; row++) {
      const [first, last, team] = edges.slice(row * 3, row * 3 + 3) as [number, number, number];
      expect(first, `row ${row + 1}`).toBeLessThan(last);
      expect(last, `row ${row + 1}`).toBeLessThan(team);
    }
  });
});
