/** The reader's copies of the strings it keeps are the same text, character for character. */
import { expect, test } from "vitest";
import { ownString } from "../../src/tabular/xlsx-own-strings.js";

test("a copy keeps every character, a lone surrogate and a quote included", () => {
  const chunk = `<t>person1@example.org "q" \\ \uD800 end Zoë 漢字</t><t>x</t>`;
  const text = chunk.slice(3, chunk.indexOf("</t>"));
  expect(ownString(text)).toBe(text);
  expect(ownString("short")).toBe("short");
});
