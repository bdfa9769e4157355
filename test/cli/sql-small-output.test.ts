/**
 * `sql` prints a small result of every kind of value byte for byte as it always has, in each
 * format: the table, CSV (formulas neutralised, quoting, TIMESTAMPTZ in UTC, at any depth) and
 * JSON. Through main(), on a real DuckDB file.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-sql-small-");

beforeAll(async () => {
  (await openDatabase(join(dir, "lms.duckdb"))).close();
});

/** Three rows: values of each kind, text a spreadsheet would run, and a row of NULLs. */
const VARIED =
  "SELECT * FROM (VALUES\n  (1, 'plain', 1.5::DOUBLE, 12.34::DECIMAL(10,2), 9007199254740993::BIGINT, '=SUM(A1)', 'a,\"b\"', E'line\\nbreak', NULL::VARCHAR, true, DATE '2026-03-05', TIMESTAMP '2026-03-05 10:22:13.5', [1, 2], {'k': 'v'}, MAP {1: 'a'}, INTERVAL 3 DAY, '00000000-0000-0000-0000-000000000001'::UUID, 'é ünïcode ✓', repeat('w', 80)),\n  (-22, '', -0.25::DOUBLE, -0.10::DECIMAL(10,2), -5::BIGINT, '-3', '+x', E'tab\\there', 'set', false, 'infinity'::DATE, '-infinity'::TIMESTAMP, [], {'k': NULL}, MAP {}, INTERVAL 90 MINUTE, NULL, '@home', 'short'),\n  (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)\n) t(id, label, ratio, amount, big, formula, quoted, multiline, maybe, flag, day, seen, list, struct, map, span, uuid, unicode, wide)";

/** The same with TIMESTAMPTZ values, which the table shows in the machine's zone. */
const WITH_INSTANTS = `SELECT *, TIMESTAMPTZ '2026-11-27 08:00:00.5+00' AS instant,
  [TIMESTAMPTZ '2026-11-27 08:00:00+00'] AS instants FROM (${VARIED}) s`;

const TABLE = [
  "id   | label | ratio | amount | big              | formula  | quoted | multiline   | maybe | flag  | day        | seen                  | list   | struct      | map      | span     | uuid                                 | unicode     | wide",
  "-----+-------+-------+--------+------------------+----------+--------+-------------+-------+-------+------------+-----------------------+--------+-------------+----------+----------+--------------------------------------+-------------+-------------------------------------------------------------",
  "   1 | plain |   1.5 |  12.34 | 9007199254740993 | =SUM(A1) | a,\"b\"  | line\\nbreak | NULL  | true  | 2026-03-05 | 2026-03-05 10:22:13.5 | [1, 2] | {'k': 'v'}  | {1: 'a'} | 3 days   | 00000000-0000-0000-0000-000000000001 | é ünïcode ✓ | wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww…",
  " -22 |       | -0.25 |  -0.10 |               -5 | -3       | +x     | tab\\there   | set   | false | infinity   | -infinity             | []     | {'k': NULL} | {}       | 01:30:00 | NULL                                 | @home       | short",
  "NULL | NULL  | NULL  | NULL   | NULL             | NULL     | NULL   | NULL        | NULL  | NULL  | NULL       | NULL                  | NULL   | NULL        | NULL     | NULL     | NULL                                 | NULL        | NULL",
  "(3 rows)",
  "",
].join("\n");

const CSV = [
  "id,label,ratio,amount,big,formula,quoted,multiline,maybe,flag,day,seen,list,struct,map,span,uuid,unicode,wide,instant,instants",
  '1,plain,1.5,12.34,9007199254740993,\'=SUM(A1),"a,""b""","line\nbreak",,true,2026-03-05,2026-03-05 10:22:13.5,"[1, 2]",{\'k\': \'v\'},{1: \'a\'},3 days,00000000-0000-0000-0000-000000000001,é ünïcode ✓,wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww,2026-11-27 08:00:00.5+00,[2026-11-27 08:00:00+00]',
  "-22,,-0.25,-0.10,-5,'-3,'+x,tab\there,set,false,infinity,-infinity,[],{'k': NULL},{},01:30:00,,'@home,short,2026-11-27 08:00:00.5+00,[2026-11-27 08:00:00+00]",
  ",,,,,,,,,,,,,,,,,,,2026-11-27 08:00:00.5+00,[2026-11-27 08:00:00+00]",
  "",
].join("\r\n");

const JSON_TEXT = [
  "[",
  '{"id":1,"label":"plain","ratio":1.5,"amount":12.34,"big":"9007199254740993","formula":"=SUM(A1)","quoted":"a,\\"b\\"","multiline":"line\\nbreak","maybe":null,"flag":true,"day":"2026-03-05","seen":"2026-03-05T10:22:13.500Z","list":[1,2],"struct":{"k":"v"},"map":{"1":"a"},"span":"3 days","uuid":"00000000-0000-0000-0000-000000000001","unicode":"é ünïcode ✓","wide":"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww","instant":"2026-11-27T08:00:00.500Z","instants":["2026-11-27T08:00:00.000Z"]},',
  '{"id":-22,"label":"","ratio":-0.25,"amount":-0.1,"big":-5,"formula":"-3","quoted":"+x","multiline":"tab\\there","maybe":"set","flag":false,"day":"infinity","seen":"-infinity","list":[],"struct":{"k":null},"map":{},"span":"01:30:00","uuid":null,"unicode":"@home","wide":"short","instant":"2026-11-27T08:00:00.500Z","instants":["2026-11-27T08:00:00.000Z"]},',
  '{"id":null,"label":null,"ratio":null,"amount":null,"big":null,"formula":null,"quoted":null,"multiline":null,"maybe":null,"flag":null,"day":null,"seen":null,"list":null,"struct":null,"map":null,"span":null,"uuid":null,"unicode":null,"wide":null,"instant":"2026-11-27T08:00:00.500Z","instants":["2026-11-27T08:00:00.000Z"]}',
  "]",
  "",
].join("\n");

async function printed(query: string, format: string): Promise<string> {
  const run = await runInProcess(["sql", query, "--format", format], dir);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe("");
  return run.stdout;
}

describe("sql prints a small varied result as it always has", () => {
  it("as a table", async () => {
    expect(await printed(VARIED, "table")).toBe(TABLE);
  });

  it("as CSV", async () => {
    expect(await printed(WITH_INSTANTS, "csv")).toBe(CSV);
  });

  it("as JSON, columns named as array indexes first, as a JavaScript object orders them", async () => {
    const odd = `SELECT 1 AS b, 2 AS "1", 3 AS a, 4 AS "__proto__", [5] AS "0", 6 AS b`;
    expect(await printed(odd, "json")).toBe(
      '[\n{"0":[5],"1":2,"b":1,"a":3,"__proto__":4,"b:1":6}\n]\n',
    );
  });

  it("as JSON", async () => {
    expect(await printed(WITH_INSTANTS, "json")).toBe(JSON_TEXT);
  });
});
