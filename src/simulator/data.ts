/**
 * The simulated portal's live data: generated from a seed, read by the HTTP handlers and by
 * tests, changed by the edit and create operations and by inserts while a client pages.
 */
import type { ApiRecord } from "../resources/record-types.js";
import { RESOURCES } from "../resources/registry.js";
import type { ResourceName } from "../resources/types.js";
import { compileCriteria } from "./criteria.js";
import { generatePortal } from "./generate.js";
import { insertRecords } from "./inserts.js";
import type { ListedName } from "./listed-name.js";
import { applyEdit, createLink, type EditableName } from "./mutations.js";
import type { PortalGenerator } from "./portal-generator.js";
import { deriveSeed, Rng } from "./prng.js";
import { notFound } from "./request-error.js";
import type { RowPage } from "./table.js";

export type { ListedName } from "./listed-name.js";
export type { EditableName } from "./mutations.js";

/** What to generate; see SimulatorOptions for the meaning and defaults. */
export interface DataOptions {
  seed: number;
  users: number;
  takesPerUser: number;
  now: Date;
  deletedProducts: number;
}

/**
 * A page of a list: `total` records match the criteria, `resultJson` is the asked-for slice as
 * the JSON text of an array of records.
 */
export interface ListResult {
  total: number;
  resultJson: string;
}

/** One list request: offset, count (already capped) and raw criteria; `parentId` for take. */
export interface PageRequest {
  start: number;
  limit: number;
  criterias?: unknown;
  /** For `take`: the user whose takes are listed. */
  parentId?: number;
  /** `newest` first (the default), or a new random order for this request. */
  order?: "newest" | "random";
  /** Criteria select what matches any of them instead of all (FaultConfig.criteriaAnyOf). */
  anyOf?: boolean;
}

/**
 * The store behind the simulated portal. Reads answer records exactly as the API prints them.
 * Writes check their input like the API does and throw a RequestError (400 or 404) otherwise.
 */
export interface SimulatorData {
  /** The reference "now" the generated dates are relative to. */
  readonly now: Date;
  /** Every record of a resource, by primary key ascending (for take: every user's takes). */
  list<R extends ResourceName>(name: R): ApiRecord<R>[];
  /** One record by primary key, or undefined. */
  get<R extends ResourceName>(name: R, id: number): ApiRecord<R> | undefined;
  /** The group whose grp_external_id is `externalId`, or undefined. */
  groupByExternalId(externalId: string): ApiRecord<"grp"> | undefined;
  /** A user's takes by take_id ascending (empty for an unknown user). */
  takesForUser(userId: number): ApiRecord<"take">[];
  /** Every user id, ascending. */
  userIds(): number[];
  /** How many records a resource holds. */
  count(name: ResourceName): number;
  /** Product ids that records reference but that do not exist. */
  deletedProductIds(): number[];
  /** A list page, newest first, after checking the criteria (RequestError 400 on bad ones). */
  page(name: ListedName, request: PageRequest): ListResult;
  /** Applies an edit body (wire values) and bumps the updated date; answers the new record. */
  edit<R extends EditableName>(name: R, id: number, body: unknown): ApiRecord<R>;
  /** Creates a user-group link from a create body; answers the new link. */
  createUserGroup(body: unknown): ApiRecord<"user_grp">;
  /** Inserts `count` new records, newest of all (take: for user `parentId`); answers their ids. */
  insert(name: ListedName, count: number, parentId?: number): number[];
  /** Removes up to `count` random records (take: of user `parentId`); answers their ids. */
  remove(name: ListedName, count: number, parentId?: number): number[];
  /** Removes the record with primary key `id`; false when there is none. */
  removeKey(name: ListedName, id: number): boolean;
}

class PortalData implements SimulatorData {
  readonly now: Date;
  private readonly gen: PortalGenerator;
  private readonly insertRng: Rng;
  private readonly churnRng: Rng;

  constructor(options: DataOptions) {
    this.now = options.now;
    this.gen = generatePortal({
      seed: options.seed,
      users: options.users,
      takesPerUser: options.takesPerUser,
      now: Math.floor(options.now.getTime() / 1000),
      deletedProducts: options.deletedProducts,
    });
    this.insertRng = new Rng(deriveSeed(options.seed, 4));
    this.churnRng = new Rng(deriveSeed(options.seed, 5));
  }

  list<R extends ResourceName>(name: R): ApiRecord<R>[] {
    const table = this.gen.tables[name];
    const out: ApiRecord<R>[] = [];
    for (let row = 0; row < table.length; row++) {
      if (!table.isRemoved(row)) out.push(table.store.record(row) as ApiRecord<R>);
    }
    return out;
  }

  get<R extends ResourceName>(name: R, id: number): ApiRecord<R> | undefined {
    const table = this.gen.tables[name];
    const row = table.store.rowOf(id);
    return row < 0 || table.isRemoved(row) ? undefined : (table.store.record(row) as ApiRecord<R>);
  }

  groupByExternalId(externalId: string): ApiRecord<"grp"> | undefined {
    const store = this.gen.tables.grp.store;
    for (let row = 0; row < store.length; row++) {
      if (store.get(row, "grp_external_id") === externalId)
        return store.record(row) as ApiRecord<"grp">;
    }
    return undefined;
  }

  takesForUser(userId: number): ApiRecord<"take">[] {
    const takes = this.gen.tables.take;
    return takes.childRows(userId).map((row) => takes.store.record(row) as ApiRecord<"take">);
  }

  userIds(): number[] {
    return Array.from(
      this.gen.tables.user.store.numeric(RESOURCES.user.primaryKey).subarray(0, this.count("user")),
    );
  }

  count(name: ResourceName): number {
    return this.gen.tables[name].liveCount;
  }

  deletedProductIds(): number[] {
    return [...this.gen.deletedProductIds];
  }

  page(name: ListedName, request: PageRequest): ListResult {
    const { total, rows } =
      request.order === "random" ? this.shuffled(name, request) : this.select(name, request);
    const store = this.gen.tables[name].store;
    // The text of a record is kept for lists of a whole table, which answer hundreds of records a
    // page; a user's takes are a handful, and keeping those of two million takes would cost
    // hundreds of megabytes.
    const text = (row: number) =>
      request.parentId === undefined ? store.recordText(row) : JSON.stringify(store.record(row));
    const parts: string[] = [];
    for (let i = 0; i < rows.length; i++) parts.push(text(rows[i] as number));
    return { total, resultJson: `[${parts.join(",")}]` };
  }

  /** Every matching row in a new random order, then the asked-for slice. */
  private shuffled(name: ListedName, request: PageRequest): RowPage {
    const all = Array.from(this.select(name, { ...request, start: 0, limit: Infinity }).rows);
    for (let i = all.length - 1; i > 0; i--) {
      const j = this.churnRng.int(0, i);
      [all[i], all[j]] = [all[j] as number, all[i] as number];
    }
    return { total: all.length, rows: all.slice(request.start, request.start + request.limit) };
  }

  private select(name: ListedName, request: PageRequest): RowPage {
    const table = this.gen.tables[name];
    const filter = compileCriteria(table.store, request.criterias, request.anyOf);
    if (name !== "take")
      return table.page(filter.predicate, filter.key, request.start, request.limit);
    const userId = request.parentId ?? Number.NaN;
    if (this.gen.tables.user.store.rowOf(userId) < 0) throw notFound(`user ${userId} not found`);
    return table.pageOfParent(userId, filter.predicate, request.start, request.limit);
  }

  edit<R extends EditableName>(name: R, id: number, body: unknown): ApiRecord<R> {
    const row = applyEdit(this.gen, name, id, body);
    return this.gen.tables[name].store.record(row) as ApiRecord<R>;
  }

  createUserGroup(body: unknown): ApiRecord<"user_grp"> {
    const id = createLink(this.gen, this.insertRng, body);
    return this.get("user_grp", id) as ApiRecord<"user_grp">;
  }

  insert(name: ListedName, count: number, parentId?: number): number[] {
    return insertRecords(this.gen, this.insertRng, name, count, parentId);
  }

  removeKey(name: ListedName, id: number): boolean {
    const table = this.gen.tables[name];
    return table.remove(table.store.rowOf(id));
  }

  remove(name: ListedName, count: number, parentId?: number): number[] {
    const table = this.gen.tables[name];
    const candidates = parentId === undefined ? undefined : [...table.childRows(parentId)];
    const ids: number[] = [];
    for (let attempt = 0; ids.length < count && attempt < count * 20; attempt++) {
      const row = candidates
        ? candidates[this.churnRng.int(0, candidates.length - 1)]
        : this.churnRng.int(0, table.length - 1);
      if (row === undefined || !table.remove(row)) continue;
      ids.push(table.store.get(row, RESOURCES[name].primaryKey) as number);
    }
    return ids;
  }
}

/** Generates the portal's data (deterministic for the same options). */
export function createSimulatorData(options: DataOptions): SimulatorData {
  return new PortalData(options);
}
