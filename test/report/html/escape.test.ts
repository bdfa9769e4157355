/** Text into HTML: markup shown as text, and characters XML forbids as U+FFFD. */
import { expect, test } from "vitest";
import { escapeHtml } from "../../../src/report/html/escape.js";

test("markup is escaped and a NUL or other control character becomes U+FFFD", () => {
  expect(escapeHtml(`<b a="1">'x' & y</b>`)).toBe(
    "&lt;b a=&quot;1&quot;&gt;&#39;x&#39; &amp; y&lt;/b&gt;",
  );
  expect(escapeHtml("a\u0000b\u0007c\u000bd\ufffee")).toBe("a\ufffdb\ufffdc\ufffdd\ufffde");
  // Tab, line feed and carriage return are text like any other.
  expect(escapeHtml("a\tb\nc\rd")).toBe("a\tb\nc\rd");
});
