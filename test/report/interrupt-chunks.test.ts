/**
 * The streaming writers stop between chunks of rows once their signal fires: the Excel writer and
 * the HTML report's pass over a result each read one chunk, the signal fires, and the next chunk
 * is never asked for.
 */
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance, type DuckDBResult } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { XlsxWorkbook } from "../../src/report/export/xlsx.js";
import { collectQuery } from "../../src/report/html/collect-query.js";
import { tempDir } from "../helpers/temp-dir.js";

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

/** A result of many chunks that fires `controller` once its first chunk was fetched. */
async function abortingAfterFirstChunk(
  controller: AbortController,
): Promise<{ result: DuckDBResult; fetched: () => number }> {
  const result = await connection.stream("SELECT i, 'row ' || i AS label FROM range(100000) t(i)");
  const fetch = result.fetchChunk.bind(result);
  let fetched = 0;
  result.fetchChunk = async () => {
    const chunk = await fetch();
    fetched++;
    controller.abort();
    return chunk;
  };
  return { result, fetched: () => fetched };
}

test("the Excel writer stops before the next chunk once the signal fires", async () => {
  const controller = new AbortController();
  const { result, fetched } = await abortingAfterFirstChunk(controller);
  const book = new XlsxWorkbook(join(await tempDir("lms-xlsx-stop-"), "a.xlsx"), {
    neutraliseFormulas: true,
  });
  const error = await book.addResult("rows", result, { signal: controller.signal }).catch((e) => e);
  await book.abort();
  expect(error).toBeInstanceOf(LmsExportError);
  expect((error as LmsExportError).code).toBe("interrupted");
  expect(fetched()).toBe(1);
});

test("the HTML report's pass over a result stops before the next chunk once the signal fires", async () => {
  const controller = new AbortController();
  const { result, fetched } = await abortingAfterFirstChunk(controller);
  const error = await collectQuery(result, [], {
    wantOverall: false,
    queryError: (e) => e,
    signal: controller.signal,
  }).catch((e) => e);
  expect(error).toBeInstanceOf(LmsExportError);
  expect((error as LmsExportError).code).toBe("interrupted");
  expect(fetched()).toBe(1);
});
