/**
 * Compares what the portal holds with what a DuckDB table holds, field by field, in a form both
 * sides can be brought to independently: dates as UTC instants to the second, lists and objects as
 * parsed JSON, numbers as numbers.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { expect } from "vitest";
import { quoteIdent } from "../../src/load/ddl.js";
import { EXTRACTED, type ExtractedName, RESOURCES } from "../../src/resources/registry.js";
import type { ResourceSpec } from "../../src/resources/types.js";
import type { SimulatorData } from "../../src/simulator/data.js";

type Normal = Record<string, unknown>;

function isoSecond(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return new Date(String(value)).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The portal's records of a resource, normalised and keyed by primary key. */
export function normaliseApi(
  resource: ExtractedName,
  records: readonly unknown[],
): Map<number, Normal> {
  const spec: ResourceSpec = RESOURCES[resource];
  const out = new Map<number, Normal>();
  for (const raw of records) {
    const record = raw as Record<string, unknown>;
    const row: Normal = {};
    for (const field of spec.fields) {
      const value = record[field.name] ?? null;
      if (value === null) row[field.name] = null;
      else if (field.type === "datetime") row[field.name] = isoSecond(value);
      else if (field.type === "int" || field.type === "number" || field.type === "flag")
        row[field.name] = Number(value);
      else if (field.type === "unknown")
        row[field.name] = typeof value === "string" ? value : JSON.stringify(value);
      else row[field.name] = value;
    }
    out.set(Number(record[spec.primaryKey]), row);
  }
  return out;
}

/** A table's rows, normalised the same way, keyed by primary key. */
export async function normaliseTable(
  connection: DuckDBConnection,
  resource: ExtractedName,
): Promise<Map<number, Normal>> {
  const spec: ResourceSpec = RESOURCES[resource];
  const select = spec.fields
    .map((field) => {
      const col = quoteIdent(field.name);
      switch (field.type) {
        case "datetime":
          return `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ') AS ${col}`;
        case "string_list":
        case "object":
          return `to_json(${col})::VARCHAR AS ${col}`;
        case "int":
        case "flag":
        case "number":
          return `${col}::DOUBLE AS ${col}`;
        default:
          return col;
      }
    })
    .join(", ");
  const reader = await connection.runAndReadAll(`SELECT ${select} FROM ${quoteIdent(resource)}`);
  const out = new Map<number, Normal>();
  for (const row of reader.getRowObjectsJS()) {
    const normal: Normal = {};
    for (const field of spec.fields) {
      const value = row[field.name] ?? null;
      normal[field.name] =
        value !== null && (field.type === "string_list" || field.type === "object")
          ? JSON.parse(String(value))
          : value;
    }
    out.set(Number(normal[spec.primaryKey]), normal);
  }
  return out;
}

export async function countRows(connection: DuckDBConnection, table: string): Promise<number> {
  const reader = await connection.runAndReadAll(
    `SELECT count(*)::INTEGER FROM ${quoteIdent(table)}`,
  );
  return Number(reader.getRows()[0]?.[0]);
}

/**
 * Every extracted table equals what the simulated portal holds now, field by field. Products are
 * left out: the simulator deletes one on purpose, which its ids still name.
 */
export async function expectTablesEqualPortal(
  connection: DuckDBConnection,
  data: SimulatorData,
): Promise<void> {
  for (const name of EXTRACTED) {
    if (name === "product") continue;
    const expected = normaliseApi(name, data.list(name));
    const actual = await normaliseTable(connection, name);
    expect(actual.size, name).toBe(expected.size);
    for (const [id, row] of expected) expect(actual.get(id), `${name} ${id}`).toEqual(row);
  }
}
