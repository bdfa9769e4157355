/**
 * One resource's records plus the orderings its list operations need.
 *
 * Lists answer newest first (`*_created_date` DESC, then primary key DESC), so a record inserted
 * while a client pages shifts every later offset, as on a live portal. The newest-first order is
 * built on first use and kept up to date on insert; filter results are cached per criteria and
 * dropped when the table changes, so a client paging through a filtered list pays for the scan
 * once, not once per page.
 */
import type { ResourceSpec } from "../resources/types.js";
import { ColumnStore, type StoredValue } from "./column-store.js";

/** A row filter compiled from list criteria. */
export type RowPredicate = (row: number) => boolean;

/** A page of rows and the number of rows matching the filter. */
export interface RowPage {
  total: number;
  rows: ArrayLike<number>;
}

const CACHED_FILTERS = 32;

export class Table {
  readonly store: ColumnStore;
  /** Largest primary key so far (0 when empty); keys only grow, which keeps lookups a search. */
  lastKey = 0;
  /** Newest creation date so far, epoch seconds (-Infinity when empty). */
  newestCreated = Number.NEGATIVE_INFINITY;
  private readonly createdField: string | undefined;
  private readonly keyPosition: number;
  private readonly createdPosition: number;
  private order: Int32Array | null = null;
  private orderLength = 0;
  private readonly cache = new Map<string, { version: number; rows: Int32Array }>();
  private readonly parentField: string | undefined;
  private children: Map<number, number[]> | null = null;
  /** Rows removed while a client pages (fault `deleteWhilePaging`); they list and read as gone. */
  private readonly removed = new Set<number>();

  /**
   * `parentField`: a reference field to keep a per-parent index on (e.g. take_user_id, whose
   * lists are scoped by user), if any.
   */
  constructor(spec: ResourceSpec, initialCapacity: number, parentField?: string) {
    this.store = new ColumnStore(spec, initialCapacity);
    this.createdField = spec.fields.find((field) => field.name.endsWith("_created_date"))?.name;
    this.parentField = parentField;
    this.keyPosition = this.store.position(spec.primaryKey);
    this.createdPosition = this.createdField ? this.store.position(this.createdField) : -1;
  }

  /** Rows stored, removed ones included (row numbers stay valid). */
  get length(): number {
    return this.store.length;
  }

  /** Records that still exist. */
  get liveCount(): number {
    return this.store.length - this.removed.size;
  }

  isRemoved(row: number): boolean {
    return this.removed.has(row);
  }

  /**
   * Removes a record as a portal deleting it would: it no longer lists, reads or counts, and every
   * later offset shifts back by one. Answers false when the row was already gone.
   */
  remove(row: number): boolean {
    if (row < 0 || row >= this.store.length || this.removed.has(row)) return false;
    this.removed.add(row);
    if (this.order) {
      const at = this.order.subarray(0, this.orderLength).indexOf(row);
      if (at >= 0) {
        this.order.copyWithin(at, at + 1, this.orderLength);
        this.orderLength--;
      }
    }
    if (this.children && this.parentField) {
      const siblings = this.children.get(this.store.get(row, this.parentField) as number);
      const at = siblings?.indexOf(row) ?? -1;
      if (at >= 0) siblings?.splice(at, 1);
    }
    // Cached filter results are keyed by the store's version.
    this.store.version++;
    return true;
  }

  /** Appends a record and keeps the orderings current. */
  insert(values: readonly StoredValue[]): number {
    const key = values[this.keyPosition];
    if (typeof key !== "number" || key <= this.lastKey) {
      throw new Error(`${this.store.spec.name}: keys must ascend (got ${String(key)})`);
    }
    const row = this.store.append(values);
    this.lastKey = key;
    const created = values[this.createdPosition];
    if (typeof created === "number" && created > this.newestCreated) this.newestCreated = created;
    if (this.order) this.placeInOrder(row);
    if (this.children && this.parentField) this.addChild(row);
    return row;
  }

  /** Rows matching `predicate` (all when undefined), newest first; `key` names the filter. */
  page(predicate: RowPredicate | undefined, key: string, start: number, limit: number): RowPage {
    const rows = predicate ? this.filtered(predicate, key) : this.ordered();
    return { total: rows.length, rows: rows.subarray(start, start + limit) };
  }

  /** Like `page`, within the rows whose parent field equals `parentId`. */
  pageOfParent(
    parentId: number,
    predicate: RowPredicate | undefined,
    start: number,
    limit: number,
  ): RowPage {
    const own = this.childRows(parentId);
    const rows = predicate ? own.filter(predicate) : [...own];
    rows.sort((a, b) => this.newerFirst(a, b));
    return { total: rows.length, rows: rows.slice(start, start + limit) };
  }

  /** Rows whose parent field equals `parentId`, in insertion order. */
  childRows(parentId: number): readonly number[] {
    if (!this.children) this.buildChildren();
    return this.children?.get(parentId) ?? [];
  }

  private filtered(predicate: RowPredicate, key: string): Int32Array {
    const hit = this.cache.get(key);
    if (hit && hit.version === this.store.version) {
      // Refresh its place in the (insertion-ordered) map: least recently used goes first.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.rows;
    }
    const ordered = this.ordered();
    const matches = new Int32Array(ordered.length);
    let n = 0;
    for (const row of ordered) if (predicate(row)) matches[n++] = row;
    const rows = matches.slice(0, n);
    this.cache.delete(key);
    this.cache.set(key, { version: this.store.version, rows });
    if (this.cache.size > CACHED_FILTERS) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return rows;
  }

  private ordered(): Int32Array {
    if (!this.order) {
      const order = new Int32Array(Math.max(16, this.store.length * 2));
      let rows = 0;
      for (let i = 0; i < this.store.length; i++) if (!this.removed.has(i)) order[rows++] = i;
      order.subarray(0, rows).sort((a, b) => this.newerFirst(a, b));
      this.order = order;
      this.orderLength = rows;
    }
    return this.order.subarray(0, this.orderLength);
  }

  /** Negative when row `a` lists before row `b`. */
  private newerFirst(a: number, b: number): number {
    const created = this.createdField ? this.store.numeric(this.createdField) : null;
    if (created) {
      const ca = created[a] as number;
      const cb = created[b] as number;
      // A record without a creation date lists last, as an SQL "DESC NULLS LAST" would.
      const va = Number.isNaN(ca) ? Number.NEGATIVE_INFINITY : ca;
      const vb = Number.isNaN(cb) ? Number.NEGATIVE_INFINITY : cb;
      if (va !== vb) return vb - va;
    }
    // Rows are appended with ascending keys, so a larger row index is a larger key.
    return b - a;
  }

  private placeInOrder(row: number): void {
    let order = this.order as Int32Array;
    if (this.orderLength === order.length) {
      const bigger = new Int32Array(order.length * 2);
      bigger.set(order);
      order = bigger;
      this.order = bigger;
    }
    // New records are nearly always the newest: search from the front.
    let lo = 0;
    let hi = this.orderLength;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.newerFirst(order[mid] as number, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    order.copyWithin(lo + 1, lo, this.orderLength);
    order[lo] = row;
    this.orderLength++;
  }

  private buildChildren(): void {
    this.children = new Map();
    for (let row = 0; row < this.store.length; row++) this.addChild(row);
  }

  private addChild(row: number): void {
    if (this.removed.has(row)) return;
    const parent = this.store.get(row, this.parentField as string);
    if (typeof parent !== "number" || !this.children) return;
    const list = this.children.get(parent);
    if (list) list.push(row);
    else this.children.set(parent, [row]);
  }
}
