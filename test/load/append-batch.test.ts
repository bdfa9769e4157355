import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { toRecordBatch, toRecordBatchFor } from "../../src/encode/to-record-batch.js";
import { stagingWriter, stagingWriterFor } from "../../src/load/append-batch.js";
import { openDatabase } from "../../src/load/database.js";
import { createStagingTableSql } from "../../src/load/staging.js";
import { EXTRACTED, RESOURCES } from "../../src/resources/registry.js";
import type { FieldType } from "../../src/resources/types.js";
import { tempDir } from "../helpers/temp-dir.js";
import { memory, withSideTables } from "./helpers/memory-db.js";

function batchOf(...args: Parameters<typeof toRecordBatch>) {
  const { batch, rejects } = toRecordBatch(...args);
  expect(rejects).toEqual([]);
  if (!batch) throw new Error("no batch");
  return batch;
}

async function rows(connection: DuckDBConnection, sql: string) {
  return (await connection.runAndReadAll(sql)).getRowObjectsJson();
}

describe("stagingWriter", () => {
  it("stores every take and product value with its type; dates to the second, in UTC", async () => {
    const connection = await memory();
    const takes = [
      {
        take_id: 10,
        take_product_id: 3,
        take_user_id: "77",
        take_status: "in_progress",
        take_score: 88,
        take_started_date: "2026-03-05T10:22:13+02:00",
        take_completed_date: "2026-03-05 23:59:59",
        take_created_date: "1999-12-31T23:59:59-01:00",
        take_updated_date: "2026-03-05T10:22:13.654321Z",
        brand_new: { x: "ü" },
      },
      { take_id: 11, take_status: "完了 ✅", take_score: null },
    ];
    const writer = await stagingWriter(connection, "take");
    await writer.append(batchOf("take", takes));
    await writer.close();
    const stored = await rows(
      connection,
      `SELECT take_id, typeof(take_id) AS id_type, take_product_id, take_user_id, take_status,
              take_score, typeof(take_started_date) AS ts_type,
              strftime(take_started_date, '%Y-%m-%dT%H:%M:%S') AS started,
              strftime(take_completed_date, '%Y-%m-%dT%H:%M:%S') AS completed,
              strftime(take_created_date, '%Y-%m-%dT%H:%M:%S') AS created,
              epoch_us(take_updated_date) AS updated_us, _extra, typeof(_extra) AS extra_type, _seq
       FROM _stage_take ORDER BY _seq`,
    );
    expect(stored).toEqual([
      {
        take_id: "10",
        id_type: "BIGINT",
        take_product_id: "3",
        take_user_id: "77",
        take_status: "in_progress",
        take_score: "88",
        ts_type: "TIMESTAMP",
        started: "2026-03-05T08:22:13",
        completed: "2026-03-05T23:59:59",
        created: "2000-01-01T00:59:59",
        updated_us: String(Date.parse("2026-03-05T10:22:13Z") * 1000 + 654_321),
        _extra: '{"brand_new":{"x":"ü"}}',
        extra_type: "JSON",
        _seq: "1",
      },
      {
        take_id: "11",
        id_type: "BIGINT",
        take_product_id: null,
        take_user_id: null,
        take_status: "完了 ✅",
        take_score: null,
        ts_type: "TIMESTAMP",
        started: null,
        completed: null,
        created: null,
        updated_us: null,
        _extra: null,
        extra_type: "JSON",
        _seq: "2",
      },
    ]);

    const products = await stagingWriter(connection, "product");
    await products.append(
      batchOf("product", [
        {
          product_id: 5,
          product_price: "19.99",
          product_for_sale: 1,
          product_waiting_list: false,
          product_i18n_programmation: [1, { a: null }],
          product_i18n_title: "Sécurité & santé — niveau 2",
        },
      ]),
    );
    await products.close();
    expect(
      await rows(
        connection,
        `SELECT product_price, typeof(product_price) AS price_type, product_for_sale,
                typeof(product_for_sale) AS flag_type, product_waiting_list,
                product_i18n_programmation, product_i18n_title FROM _stage_product`,
      ),
    ).toEqual([
      {
        product_price: 19.99,
        price_type: "DOUBLE",
        product_for_sale: 1,
        flag_type: "INTEGER",
        product_waiting_list: 0,
        product_i18n_programmation: '[1,{"a":null}]',
        product_i18n_title: "Sécurité & santé — niveau 2",
      },
    ]);
  });

  it("stores string lists and JSON objects", async () => {
    const connection = await memory();
    await connection.run(createStagingTableSql("user"));
    const { batch } = toRecordBatchFor(RESOURCES.user, [
      { user_id: 1, groups: ["a", "ß", "😀"], properties: { k: [1, "ö"] } },
      { user_id: 2, groups: [], properties: null },
      { user_id: 3, groups: null, properties: {} },
      { user_id: 4, groups: ["x", null] },
    ]);
    if (!batch) throw new Error("no batch");
    const writer = await stagingWriterFor(connection, "_stage_user");
    await writer.append(batch);
    // Slices (user 1, then user 4) read their lists at the right offsets.
    await writer.append(batch.slice(0, 1));
    await writer.append(batch.slice(3, 4));
    await writer.close();
    expect(
      await rows(
        connection,
        "SELECT user_id, groups, typeof(groups) AS t, properties FROM _stage_user ORDER BY _seq",
      ),
    ).toEqual([
      { user_id: "1", groups: ["a", "ß", "😀"], t: "VARCHAR[]", properties: '{"k":[1,"ö"]}' },
      { user_id: "2", groups: [], t: "VARCHAR[]", properties: null },
      { user_id: "3", groups: null, t: "VARCHAR[]", properties: "{}" },
      { user_id: "4", groups: ["x", null], t: "VARCHAR[]", properties: null },
      { user_id: "1", groups: ["a", "ß", "😀"], t: "VARCHAR[]", properties: '{"k":[1,"ö"]}' },
      { user_id: "4", groups: ["x", null], t: "VARCHAR[]", properties: null },
    ]);
  });

  it("splits large batches into chunks and numbers rows across batches", async () => {
    const connection = await memory();
    const make = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => {
        const id = from + i;
        return {
          take_id: id,
          take_score: id % 5 === 0 ? null : id % 100,
          take_status: id % 7 === 0 ? null : `s${id % 3}é`,
          take_created_date: id % 11 === 0 ? null : new Date(id * 1000).toISOString(),
        };
      });
    const writer = await stagingWriter(connection, "take");
    const all = [...make(1, 5000), ...make(5001, 2049)];
    await writer.append(batchOf("take", all.slice(0, 5000)));
    await writer.append(batchOf("take", all.slice(5000)));
    await writer.close();
    const [summary] = await rows(
      connection,
      `SELECT count(*) AS n, sum(take_id) AS ids, count(take_score) AS scores, sum(take_score) AS score_sum,
              count(take_status) AS statuses, count(DISTINCT take_status) AS distinct_statuses,
              sum(epoch(take_created_date)) AS seconds, min(_seq) AS first, max(_seq) AS last,
              count(*) FILTER (WHERE _seq <> take_id) AS out_of_order
       FROM _stage_take`,
    );
    const ids = all.map((r) => r.take_id);
    const scores = all.map((r) => r.take_score).filter((s) => s !== null);
    expect(summary).toEqual({
      n: "7049",
      ids: String(ids.reduce((a, b) => a + b, 0)),
      scores: String(scores.length),
      score_sum: String(scores.reduce((a, b) => a + b, 0)),
      statuses: String(all.filter((r) => r.take_status !== null).length),
      distinct_statuses: "3",
      seconds: all.reduce((a, r) => a + (r.take_created_date === null ? 0 : r.take_id), 0),
      first: "1",
      last: "7049",
      out_of_order: "0",
    });
  });

  it("continues _seq after the rows already staged (resume) and flush makes rows visible", async () => {
    const path = join(await tempDir(), "seq.duckdb");
    const first = await openDatabase(path);
    const { connection: staging } = await withSideTables(await first.connect());
    const writer = await stagingWriter(staging, "grp");
    const group = (id: number, name: string) => ({
      grp_id: id,
      grp_name: name,
      grp_created_date: "2026-01-01T00:00:00Z",
      grp_updated_date: "2026-01-02T00:00:00Z",
    });
    await writer.append(batchOf("grp", [group(1, "a"), group(2, "b"), group(3, "c")]));
    await writer.flush();
    const reader = await first.connect();
    expect(await rows(reader, "SELECT count(*) AS n FROM _stage_grp")).toEqual([{ n: "3" }]);
    await writer.close();
    first.close();

    const second = await openDatabase(path);
    const connection = await second.connect();
    const again = await stagingWriter(connection, "grp");
    await again.append(batchOf("grp", [group(2, "b2"), group(4, "d")]));
    await again.close();
    expect(
      await rows(connection, "SELECT grp_id, grp_name, _seq FROM _stage_grp ORDER BY _seq"),
    ).toEqual([
      { grp_id: "1", grp_name: "a", _seq: "1" },
      { grp_id: "2", grp_name: "b", _seq: "2" },
      { grp_id: "3", grp_name: "c", _seq: "3" },
      { grp_id: "2", grp_name: "b2", _seq: "4" },
      { grp_id: "4", grp_name: "d", _seq: "5" },
    ]);
    second.close();
  });

  it("told that its table is the registry's and empty, stores every column where it belongs", async () => {
    const value = (type: FieldType, i: number): unknown =>
      ({
        int: 100 + i,
        string: `text ${i}`,
        datetime: `2026-0${1 + (i % 9)}-02T03:04:05Z`,
        number: i + 0.5,
        flag: i % 2,
        string_list: [`a${i}`, `b${i}`],
        object: { n: i },
        unknown: `u${i}`,
      })[type];
    for (const resource of EXTRACTED) {
      // Every field its own value, so that a column written into another's place shows.
      const record = Object.fromEntries(
        RESOURCES[resource].fields.map((field, i) => [field.name, value(field.type, i)]),
      );
      const stored: unknown[] = [];
      for (const shape of [{}, { fresh: true, empty: true }]) {
        const connection = await memory();
        const writer = await stagingWriter(connection, resource, shape);
        await writer.append(batchOf(resource, [record, record]));
        await writer.close();
        stored.push(await rows(connection, `SELECT * FROM _stage_${resource} ORDER BY _seq`));
      }
      expect(stored[1], resource).toEqual(stored[0]);
      expect((stored[1] as { _seq: string }[]).map((row) => row._seq)).toEqual(["1", "2"]);
    }
  });

  it("appends a sliced batch (columns with an offset)", async () => {
    const connection = await memory();
    const batch = batchOf(
      "take",
      Array.from({ length: 10 }, (_, i) => ({
        take_id: i + 1,
        take_status: i % 2 === 0 ? `s${i}ü` : null,
        take_score: i % 3 === 0 ? null : i,
        take_created_date: `2026-01-0${(i % 9) + 1}T00:00:00Z`,
      })),
    );
    const writer = await stagingWriter(connection, "take");
    await writer.append(batch.slice(3, 7));
    await writer.close();
    expect(
      await rows(
        connection,
        "SELECT take_id, take_status, take_score, strftime(take_created_date, '%d') AS day FROM _stage_take ORDER BY _seq",
      ),
    ).toEqual([
      { take_id: "4", take_status: null, take_score: null, day: "04" },
      { take_id: "5", take_status: "s4ü", take_score: "4", day: "05" },
      { take_id: "6", take_status: null, take_score: "5", day: "06" },
      { take_id: "7", take_status: "s6ü", take_score: null, day: "07" },
    ]);
  });

  it("stores short and long strings byte for byte; equal strings compare equal either way", async () => {
    const connection = await memory();
    // Around DuckDB's 12-byte inline limit, in ASCII and in multi-byte UTF-8, with NULLs between.
    const statuses = [
      "",
      "a",
      "passed",
      "elevenchars",
      "twelve chars",
      "thirteen char",
      "éééééé",
      "€€€€",
      "€€€€€",
      null,
      "a much longer status that lives outside the string_t",
      "passed",
    ];
    const takes = statuses.map((take_status, i) => ({ take_id: i + 1, take_status }));
    const writer = await stagingWriter(connection, "take");
    // Two appends so one value sits in two chunks, stored once inline and once more.
    await writer.append(batchOf("take", takes));
    await writer.append(batchOf("take", takes));
    await writer.close();
    const stored = await rows(
      connection,
      "SELECT take_status, octet_length(encode(take_status)) AS bytes FROM _stage_take WHERE _seq <= 12 ORDER BY _seq",
    );
    expect(stored.map((row) => row.take_status)).toEqual(statuses);
    expect(stored.map((row) => row.bytes)).toEqual(
      statuses.map((text) => (text === null ? null : String(Buffer.byteLength(text)))),
    );
    const groups = await rows(
      connection,
      "SELECT take_status, count(*)::INTEGER AS n FROM _stage_take GROUP BY ALL ORDER BY take_status NULLS LAST",
    );
    expect(groups).toContainEqual({ take_status: "passed", n: 4 });
    expect(groups).toContainEqual({ take_status: "twelve chars", n: 2 });
    expect(groups).toHaveLength(11);
    expect(
      await rows(
        connection,
        "SELECT count(*)::INTEGER AS n FROM _stage_take WHERE take_status = '€€€€'",
      ),
    ).toEqual([{ n: 2 }]);
  });

  it("refuses a batch of another resource and use after close", async () => {
    const connection = await memory();
    const writer = await stagingWriter(connection, "take");
    const groups = batchOf("grp", [
      { grp_id: 1, grp_name: "a", grp_created_date: "2026-01-01", grp_updated_date: "2026-01-01" },
    ]);
    await expect(writer.append(groups)).rejects.toThrow(/batch has no column "take_id"/);
    await writer.close();
    await expect(writer.append(batchOf("take", [{ take_id: 1 }]))).rejects.toThrow(/closed/);
    expect(await rows(connection, "SELECT count(*) AS n FROM _stage_take")).toEqual([{ n: "0" }]);
  });
});
