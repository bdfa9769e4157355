/**
 * `sql --format table` writes a value's control characters as escapes a reader sees: a tab as
 * `\t` (written as it is, it jumps to the next tab stop and the columns after it no longer line
 * up), an escape sequence as `\u001b[…` (written as it is, the terminal obeys it: colours, clears
 * the screen), as it writes a line break as `\n`. A real DuckDB result.
 */
import { expect, test } from "vitest";
import { printedTable as table } from "./printed-table.js";

test("table: tabs, escape sequences and other control characters are shown, not obeyed", async () => {
  const printed = await table(
    `SELECT * FROM (VALUES ('a' || chr(9) || 'b', chr(27) || '[2J' || chr(27) || '[31mred', 1),
       ('c' || chr(13) || 'd' || chr(7), 'x' || chr(155) || 'y' || chr(127), 2)) t("tab" , "esc", n)`,
  );
  expect(printed).toBe(
    [
      "tab        | esc                    | n",
      "-----------+------------------------+--",
      "a\\tb       | \\u001b[2J\\u001b[31mred | 1",
      "c\\rd\\u0007 | x\\u009by\\u007f         | 2",
      "(2 rows)",
      "",
    ].join("\n"),
  );
  // No control character reaches the terminal but the line ends.
  expect(printed.replace(/\n/g, "")).not.toMatch(/\p{Cc}/u);
});
