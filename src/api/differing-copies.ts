/**
 * Records one answer lists twice under one key with different contents. A portal may list a
 * record twice and count both copies (a join in its query: key-ranges.ts reads such a list
 * whole), and identical copies are one record. Copies that differ are the portal contradicting
 * itself in one look: the table keeps one row per key, the copy read last (load/merge.ts), so
 * the other's values are lost. That is said, naming the key and the fields that differ, rather
 * than failing a run the portal would fail every time.
 */
import { keyOf } from "./key-ranges.js";

/** One key listed with different contents, and the fields in which they differ. */
export interface DifferingCopies {
  key: number;
  fields: string[];
}

/** Field names whose values differ between `a` and `b` (absent and present count as differing). */
function differingFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter(
    (name) => !(name in a && name in b && JSON.stringify(a[name]) === JSON.stringify(b[name])),
  );
}

/** The keys of `records` listed more than once with contents that differ. */
export function differingCopies(records: readonly unknown[], key: string): DifferingCopies[] {
  const first = new Map<number, Record<string, unknown>>();
  const found = new Map<number, Set<string>>();
  for (const record of records) {
    const k = keyOf(record, key);
    if (k === undefined) continue;
    const seen = first.get(k);
    if (seen === undefined) {
      first.set(k, record as Record<string, unknown>);
      continue;
    }
    const fields = differingFields(seen, record as Record<string, unknown>);
    if (fields.length === 0) continue;
    const all = found.get(k) ?? new Set<string>();
    for (const field of fields) all.add(field);
    found.set(k, all);
  }
  return [...found].map(([k, fields]) => ({ key: k, fields: [...fields] }));
}
