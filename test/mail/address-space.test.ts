/**
 * The split trims addresses in DuckDB (src/mail/split.ts) and keys them in TypeScript
 * (normaliseAddress): both must remove the same white space around an address. DuckDB's trim()
 * left a tab, a line break and the byte-order mark, so a roster's "\tmgr4@example.com" was
 * warned about as no address and its rows went to the report's own recipients. Checked on every
 * code point, in a real DuckDB, and end to end with a split mailed to a real SMTP server on
 * 127.0.0.1 (the mail dataset, test/mail/mail-dataset.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, test } from "vitest";
import { normaliseAddress } from "../../src/mail/address.js";
import { spelled } from "../../src/mail/split.js";
import { useMailWorkspace } from "./cli-harness.js";

const ADDRESS = "Mgr4@Example.com";
const WANTED = "mgr4@example.com";
/** Every code point but the surrogates, which are no character on their own. */
const CODE_POINTS = "SELECT i FROM range(0, 1114112) t(i) WHERE i NOT BETWEEN 55296 AND 57343";

describe("white space around an address", () => {
  test("DuckDB removes the code points trim() removes, and no other", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT i FROM (
           SELECT i, chr(i::INTEGER) || chr(i::INTEGER) || '${ADDRESS}' || chr(i::INTEGER) AS m
           FROM (${CODE_POINTS})
         ) AS _lms_q WHERE ${spelled("m")} = '${ADDRESS}' ORDER BY i`,
      );
      const inSql = reader.getRowsJS().map((row) => Number(row[0]));
      const inTypeScript: number[] = [];
      for (let i = 0; i < 0x110000; i++) {
        if (i >= 0xd800 && i <= 0xdfff) continue;
        const c = String.fromCodePoint(i);
        if (normaliseAddress(`${c}${c}${ADDRESS}${c}`) === WANTED) inTypeScript.push(i);
      }
      expect(inSql).toEqual(inTypeScript);
      // Tab, LF, VT, FF, CR, space, NBSP, line separator, BOM: those the README names among them.
      for (const c of [9, 10, 11, 12, 13, 32, 0xa0, 0x2028, 0xfeff]) expect(inSql).toContain(c);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

const ws = useMailWorkspace();

/** A query naming the mail dataset's two managers with white space around them. */
const PADDED_SQL = `-- title: Padded managers
-- description: Managers' addresses as a spreadsheet may give them.
SELECT * FROM (VALUES
  (1, chr(9) || 'sales.lead@example.com'),
  (2, 'North.Lead@example.com' || chr(13) || chr(10)),
  (3, chr(65279) || 'sales.lead@example.com' || chr(11)),
  (4, NULL)
) AS t(user_id, manager_email)
`;

test("a manager's address with a tab, a line break or a BOM around it gets its own message", async () => {
  const catalog = join(ws.dir, "padded-cat");
  await mkdir(join(catalog, "reports"), { recursive: true });
  await mkdir(join(catalog, "queries"), { recursive: true });
  await writeFile(join(catalog, "queries", "padded.sql"), PADDED_SQL);
  await writeFile(
    join(catalog, "reports", "padded-mail.json"),
    JSON.stringify({
      title: "Padded",
      description: "Managers with white space.",
      queries: ["padded"],
      formats: ["csv"],
      fileName: "padded",
      mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["csv"] },
    }),
  );
  const out = join(ws.dir, "padded-out");
  const { run, received } = await ws.mailed(
    ["report", "padded-mail", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    (url) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com" }),
  );
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toContain("not e-mail addresses");
  const ids = (to: string) => {
    const csv = received.find((m) => m.to.join() === to)?.parsed.attachments[0]?.content;
    return [...String(csv).matchAll(/^(\d+),/gm)].map((m) => Number(m[1]));
  };
  expect(received.map((m) => m.to.join()).sort()).toEqual([
    "compliance@example.com",
    "north.lead@example.com",
    "sales.lead@example.com",
  ]);
  expect(ids("sales.lead@example.com")).toEqual([1, 3]);
  expect(ids("north.lead@example.com")).toEqual([2]);
  expect(ids("compliance@example.com")).toEqual([4]);
});
