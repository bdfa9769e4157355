import { type RecordBatch, Type } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { arrowSchema, arrowSchemaFor } from "../../src/encode/arrow-schema.js";
import { toRecordBatch, toRecordBatchFor } from "../../src/encode/to-record-batch.js";
import { EXTRACTED, RESOURCES } from "../../src/resources/registry.js";

/** Raw stored value of a column cell (bigint for Int64/Timestamp, string for Utf8, ...). */
function cell(batch: RecordBatch, column: string, row: number): unknown {
  const index = batch.schema.fields.findIndex((f) => f.name === column);
  const data = batch.data.children[index];
  if (!data) throw new Error(`no column ${column}`);
  const vector = batch.getChildAt(index);
  if (!data.getValid(row)) return null;
  if (data.type.typeId === Type.Timestamp || data.type.typeId === Type.Int) {
    const values = data.values;
    return values instanceof BigInt64Array || values instanceof Int32Array
      ? values[row]
      : undefined;
  }
  if (data.type.typeId === Type.List) return [...(vector?.get(row) ?? [])];
  return vector?.get(row);
}

const usec = (iso: string) => BigInt(Date.parse(iso)) * 1000n;

describe("arrowSchema", () => {
  it("maps every registry field type and nullability, then _extra", () => {
    const schema = arrowSchemaFor(RESOURCES.user);
    const type = (name: string) => schema.fields.find((f) => f.name === name);
    expect(type("user_id")?.type.toString()).toBe("Int64");
    expect(type("user_id")?.nullable).toBe(false);
    expect(type("email")?.type.toString()).toBe("Utf8");
    expect(type("groups")?.type.toString()).toBe("List<Utf8>");
    expect(type("properties")?.type.toString()).toBe("Utf8");
    expect(type("user_created_date")?.type.toString()).toBe("Timestamp<MICROSECOND, UTC>");
    const product = arrowSchema("product");
    expect(product.fields.find((f) => f.name === "product_price")?.type.toString()).toBe("Float64");
    expect(product.fields.find((f) => f.name === "product_for_sale")?.type.toString()).toBe(
      "Int32",
    );
    expect(product.fields.find((f) => f.name === "product_event_date")?.type.toString()).toBe(
      "Utf8",
    );
    const grp = arrowSchema("grp");
    expect(grp.fields.find((f) => f.name === "grp_name")?.nullable).toBe(false);
    expect(grp.fields.at(-1)?.name).toBe("_extra");
    expect(grp.fields.at(-1)?.nullable).toBe(true);
    for (const name of EXTRACTED) {
      expect(arrowSchema(name).fields.map((f) => f.name)).toEqual([
        ...RESOURCES[name].fields.map((f) => f.name),
        "_extra",
      ]);
    }
  });
});

describe("toRecordBatch", () => {
  const take = {
    take_id: 1,
    take_product_id: "42",
    take_user_id: 7,
    take_status: "in_progress",
    take_score: null,
    take_started_date: "2026-03-05T10:22:13+02:00",
    take_completed_date: "2026-03-05 10:22:13",
    take_created_date: "2026-03-05T10:22:13.123456Z",
    take_updated_date: "2026-03-05T10:22:13Z",
  };

  it("coerces ints, datetimes (to UTC micros) and strings", () => {
    const { batch, rejects, drift } = toRecordBatch("take", [take]);
    expect(rejects).toEqual([]);
    expect(drift.size).toBe(0);
    if (!batch) throw new Error("no batch");
    expect(batch.numRows).toBe(1);
    expect(cell(batch, "take_id", 0)).toBe(1n);
    expect(cell(batch, "take_product_id", 0)).toBe(42n);
    expect(cell(batch, "take_score", 0)).toBeNull();
    expect(cell(batch, "take_status", 0)).toBe("in_progress");
    expect(cell(batch, "take_started_date", 0)).toBe(usec("2026-03-05T08:22:13Z"));
    expect(cell(batch, "take_completed_date", 0)).toBe(usec("2026-03-05T10:22:13Z"));
    expect(cell(batch, "take_created_date", 0)).toBe(usec("2026-03-05T10:22:13Z") + 123_456n);
    expect(cell(batch, "_extra", 0)).toBeNull();
  });

  it("keeps integers beyond 2^53 exact and negative ones correct", () => {
    const { batch } = toRecordBatch("take", [
      { take_id: "9007199254740993", take_score: -5 },
      { take_id: -4_294_967_297, take_score: "-2147483649" },
      { take_id: "9223372036854775807", take_score: 2 ** 40 },
    ]);
    if (!batch) throw new Error("no batch");
    expect(cell(batch, "take_id", 0)).toBe(9_007_199_254_740_993n);
    expect(cell(batch, "take_score", 0)).toBe(-5n);
    expect(cell(batch, "take_id", 1)).toBe(-4_294_967_297n);
    expect(cell(batch, "take_score", 1)).toBe(-2_147_483_649n);
    expect(cell(batch, "take_id", 2)).toBe(9_223_372_036_854_775_807n);
    expect(cell(batch, "take_score", 2)).toBe(2n ** 40n);
  });

  it("keeps unicode text intact", () => {
    const texts = [
      "héllo wörld",
      "日本語のテキスト",
      "emoji 😀👩‍👩‍👧",
      "e\u0301 combining",
      "a\u0000b",
      "",
    ];
    const { batch } = toRecordBatch(
      "take",
      texts.map((t, i) => ({ take_id: i + 1, take_status: t })),
    );
    if (!batch) throw new Error("no batch");
    expect(texts.map((_, i) => cell(batch, "take_status", i))).toEqual(texts);
  });

  it("coerces product numbers, flags and unknown-typed fields", () => {
    const { batch, rejects } = toRecordBatch("product", [
      {
        product_id: 1,
        product_price: "12.50",
        product_for_sale: true,
        product_add_to_catalog: "1",
        product_certificate_report: 2,
        product_allow_notation: "false",
        product_i18n_extra_info: "plain text",
        product_i18n_programmation: { days: [1, 2] },
        product_event_date: 5,
      },
      { product_id: 2, product_price: 3, product_for_sale: 0, product_waiting_list: "" },
    ]);
    expect(rejects).toEqual([]);
    if (!batch) throw new Error("no batch");
    expect(cell(batch, "product_price", 0)).toBe(12.5);
    expect(cell(batch, "product_for_sale", 0)).toBe(1);
    expect(cell(batch, "product_add_to_catalog", 0)).toBe(1);
    expect(cell(batch, "product_certificate_report", 0)).toBe(2);
    expect(cell(batch, "product_allow_notation", 0)).toBe(0);
    expect(cell(batch, "product_i18n_extra_info", 0)).toBe("plain text");
    expect(cell(batch, "product_i18n_programmation", 0)).toBe('{"days":[1,2]}');
    expect(cell(batch, "product_event_date", 0)).toBe("5");
    expect(cell(batch, "product_price", 1)).toBe(3);
    expect(cell(batch, "product_for_sale", 1)).toBe(0);
    expect(cell(batch, "product_waiting_list", 1)).toBeNull();
    expect(cell(batch, "product_show_list_of_participants", 1)).toBeNull();
  });

  it("converts string lists and objects (user resource)", () => {
    const { batch, rejects } = toRecordBatchFor(RESOURCES.user, [
      { user_id: 1, groups: ["a", "b é", "😀"], properties: { k: "v", n: [1, null] } },
      { user_id: 2, groups: [], properties: [] },
      { user_id: 3, groups: null, properties: null },
      { user_id: 4, groups: ["x", null, 3] },
    ]);
    expect(rejects).toEqual([]);
    if (!batch) throw new Error("no batch");
    expect(cell(batch, "groups", 0)).toEqual(["a", "b é", "😀"]);
    expect(cell(batch, "properties", 0)).toBe('{"k":"v","n":[1,null]}');
    expect(cell(batch, "groups", 1)).toEqual([]);
    expect(cell(batch, "properties", 1)).toBe("[]");
    expect(cell(batch, "groups", 2)).toBeNull();
    expect(cell(batch, "properties", 2)).toBeNull();
    expect(cell(batch, "groups", 3)).toEqual(["x", null, "3"]);
  });

  it("rejects what cannot be coerced, naming the field, and keeps the rest in order", () => {
    const bad = [
      { take_id: 1, take_score: 1.5 },
      "not a record",
      { take_id: 2, take_product_id: "abc" },
      { take_score: 3 },
      { take_id: null },
      { take_id: 3, take_started_date: "yesterday" },
      { take_id: 4, take_status: { nested: true } },
      null,
      [1, 2],
      { take_id: 5, take_completed_date: 2026 }, // a year, not an epoch
      { take_id: 6, take_score: "12" },
    ];
    const { batch, rejects } = toRecordBatch("take", bad);
    expect(rejects.map((r) => r.raw)).toEqual([
      bad[0],
      bad[1],
      bad[2],
      bad[3],
      bad[4],
      bad[5],
      bad[6],
      bad[7],
      bad[8],
      bad[9],
    ]);
    const reasons = rejects.map((r) => r.reason);
    expect(reasons[0]).toBe('field "take_score": expected an integer, got 1.5');
    expect(reasons[1]).toBe("record is not a JSON object");
    expect(reasons[2]).toBe('field "take_product_id": expected an integer, got "abc"');
    expect(reasons[3]).toBe('field "take_id" is missing but required');
    expect(reasons[4]).toBe('field "take_id" is required, got null');
    expect(reasons[5]).toContain('field "take_started_date"');
    expect(reasons[6]).toContain('field "take_status": expected a string');
    expect(reasons[9]).toContain('field "take_completed_date"');
    expect(batch?.numRows).toBe(1);
    if (!batch) throw new Error("no batch");
    expect(cell(batch, "take_id", 0)).toBe(6n);
    expect(cell(batch, "take_score", 0)).toBe(12n);
  });

  it("rejects a null in a required non-key field (groups)", () => {
    const { batch, rejects } = toRecordBatch("grp", [
      { grp_id: 1, grp_name: null, grp_created_date: "2026-01-01", grp_updated_date: "2026-01-01" },
      { grp_id: 2, grp_name: "ok", grp_created_date: "", grp_updated_date: "2026-01-01" },
    ]);
    expect(batch).toBeNull();
    expect(rejects.map((r) => r.reason)).toEqual([
      'field "grp_name" is required, got null',
      'field "grp_created_date" is required, got ""',
    ]);
  });

  it("keeps unknown fields in _extra and reports them as drift", () => {
    const records = JSON.parse(
      '[{"take_id":1,"new_field":"x","__proto__":{"polluted":true}},{"take_id":2,"new_field":"y","other":[1,"é"]},{"take_id":3}]',
    );
    const { batch, drift } = toRecordBatch("take", records);
    if (!batch) throw new Error("no batch");
    expect(JSON.parse(String(cell(batch, "_extra", 0)))).toEqual(
      JSON.parse('{"new_field":"x","__proto__":{"polluted":true}}'),
    );
    expect(String(cell(batch, "_extra", 0))).toContain('"__proto__"');
    expect(JSON.parse(String(cell(batch, "_extra", 1)))).toEqual({
      new_field: "y",
      other: [1, "é"],
    });
    expect(cell(batch, "_extra", 2)).toBeNull();
    expect([...drift.keys()].sort()).toEqual(["__proto__", "new_field", "other"]);
    expect(drift.get("new_field")).toBe("x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers a null batch for no input and leaves its input untouched", () => {
    expect(toRecordBatch("grp", [])).toEqual({ batch: null, rejects: [], drift: new Map() });
    const input = [{ take_id: "5", take_started_date: "2026-03-05T10:22:13+02:00" }];
    const copy = structuredClone(input);
    toRecordBatch("take", input);
    expect(input).toEqual(copy);
  });
});
