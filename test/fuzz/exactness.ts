/**
 * What "exact" means for a portal that changes while it is read, as checks over the portal's
 * state at the start and at the end of a run and the tables the run left:
 * - a record present from start to end is in its table, with its final values when it did not
 *   change during the run (one that changed is checked by the calm run that follows);
 * - a record deleted or inserted during the run may or may not be there;
 * - no key twice, and no key the portal never had.
 * Takes, products and availability groups are reached only through other records, so one
 * must be there only when a record present throughout refers to it.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../../src/load/ddl.js";
import { EXTRACTED, type ExtractedName, RESOURCES } from "../../src/resources/registry.js";
import type { SimulatorData } from "../../src/simulator/data.js";
import { normaliseApi, normaliseTable } from "../helpers/table-snapshot.js";

type Row = Record<string, unknown>;
const LISTED: ReadonlySet<string> = new Set([
  "grp",
  "user_grp",
  "product_access",
  "svc_availability",
]);
/** Normalised records per resource, keyed by primary key. */
export type State = Map<ExtractedName, Map<number, Row>>;

export function portalState(data: SimulatorData): State {
  return new Map(EXTRACTED.map((name) => [name, normaliseApi(name, data.list(name))]));
}

export async function tableState(connection: DuckDBConnection): Promise<State> {
  const state: State = new Map();
  for (const name of EXTRACTED) state.set(name, await normaliseTable(connection, name));
  return state;
}

const rowsOf = (state: State, name: ExtractedName) => state.get(name) ?? new Map<number, Row>();
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Records present in both states: the ones that existed throughout. */
function throughout(start: State, end: State, name: ExtractedName): Map<number, Row> {
  const out = new Map<number, Row>();
  const before = rowsOf(start, name);
  for (const [id, row] of rowsOf(end, name)) if (before.has(id)) out.set(id, row);
  return out;
}

/**
 * What a run was to read: the resources it extracts (all, or those of `--only`) and the tables it
 * found, where a fan-out resource whose parents it does not extract takes its ids from.
 */
export interface RunScope {
  readonly selected: ReadonlySet<ExtractedName>;
  readonly before: State;
  /** `--since`: a record last updated before it is not asked for. */
  readonly since?: Date;
}

/** A run of every resource, whatever the database held. */
export const WHOLE: RunScope = { selected: new Set(EXTRACTED), before: new Map() };

type Span = { readonly start: State; readonly end: State; readonly scope: RunScope };

/**
 * The parent records a fan-out of the run reads ids from: those the run must have listed when it
 * extracts the parent, else the parent's table as the run found it.
 */
function parentRows(span: Span, from: ExtractedName): Row[] {
  if (!span.scope.selected.has(from)) return [...rowsOf(span.scope.before, from).values()];
  const must = required(span, from);
  return [...throughout(span.start, span.end, from)]
    .filter(([id]) => must.has(id))
    .map(([, r]) => r);
}

/**
 * Ids the run's parent records refer to: for `user` (not a table, the takes' parent),
 * products and availability groups, the ones the run must have reached.
 */
function referenced(span: Span, name: ExtractedName | "user"): Set<number> {
  const refs = new Set<number>();
  const add = (from: ExtractedName, pick: (row: Row) => unknown) => {
    for (const row of parentRows(span, from)) {
      const id = pick(row);
      if (typeof id === "number") refs.add(id);
    }
  };
  const target = (type: string) => (row: Row) =>
    row.svc_availability_target_type === type ? row.svc_availability_target_id : undefined;
  if (name === "user") {
    add("user_grp", (r) => r.user_grp_user_id);
    add("product_access", (r) => r.product_access_user_id);
  } else if (name === "product") {
    add("product_access", (r) => r.product_access_product_id);
    add("take", (r) => r.take_product_id);
    add("availability_group", (r) => r.availability_group_product_id);
    add("svc_availability", target("product"));
  } else if (name === "availability_group") {
    add("svc_availability", target("availability_group"));
  }
  return refs;
}

/** The ids of `name` that must be in its table after a run that read the portal whole. */
function required(span: Span, name: ExtractedName): Set<number> {
  const kept = throughout(span.start, span.end, name);
  if (LISTED.has(name)) return new Set(kept.keys());
  if (name === "take") {
    const users = referenced(span, "user");
    return new Set(
      [...kept].filter(([, r]) => users.has(r.take_user_id as number)).map(([k]) => k),
    );
  }
  const refs = referenced(span, name);
  return new Set([...kept.keys()].filter((id) => refs.has(id)));
}

function updatedAfter(row: Row | undefined, name: ExtractedName, since: Date): boolean {
  const field = RESOURCES[name].updatedField;
  const value = field === undefined ? undefined : row?.[field];
  return typeof value !== "string" || new Date(value) > since;
}

export interface RunFacts {
  readonly start: State;
  readonly end: State;
  /** Keys the portal created during the run, per resource. */
  readonly created: (name: string) => ReadonlySet<number>;
  /** Keys changed during the run and perhaps changed back: any version they had may be stored. */
  readonly touched: (name: string) => ReadonlySet<number>;
  readonly scope: RunScope;
}

/** Every break of the invariants, one line each (empty: the run was exact). */
export function exactnessBreaks(
  facts: RunFacts,
  table: State,
  duplicates: Map<string, number>,
): string[] {
  const breaks: string[] = [];
  for (const name of EXTRACTED) {
    const dup = duplicates.get(name) ?? 0;
    if (dup > 0) breaks.push(`${name}: ${dup} keys twice`);
    const rows = rowsOf(table, name);
    if (!facts.scope.selected.has(name)) {
      // --only: a table the run does not name keeps what it held.
      if (!same([...rowsOf(facts.scope.before, name)], [...rows]))
        breaks.push(`${name}: not named by --only, but changed`);
      continue;
    }
    const start = rowsOf(facts.start, name);
    const end = rowsOf(facts.end, name);
    const missing = [...required(facts, name)].filter((id) => !rows.has(id));
    if (missing.length > 0)
      breaks.push(`${name}: missing ${missing.length} [${missing.slice(0, 8).join(",")}]`);
    const phantom = [...rows.keys()].filter(
      (id) => !start.has(id) && !end.has(id) && !facts.created(name).has(id),
    );
    if (phantom.length > 0) breaks.push(`${name}: never existed ${phantom.slice(0, 8).join(",")}`);
    const before = rowsOf(facts.scope.before, name);
    const asOf = facts.scope.since;
    // --since: a record updated before it was not asked for and keeps what the table held.
    const leftAsAsked = (id: number, row: Row) =>
      asOf !== undefined && !updatedAfter(end.get(id), name, asOf) && same(row, before.get(id));
    const stale = [...rows]
      .filter(([id]) => start.has(id) && end.has(id) && same(start.get(id), end.get(id)))
      .filter(([id, row]) => !facts.touched(name).has(id) && !same(row, end.get(id)))
      .filter(([id, row]) => !leftAsAsked(id, row))
      .map(([id]) => id);
    if (stale.length > 0) breaks.push(`${name}: wrong values ${stale.slice(0, 8).join(",")}`);
  }
  return breaks;
}

/** After a calm run: every stored record the portal has holds its current values. */
export function settledBreaks(portal: State, table: State, full: boolean): string[] {
  const breaks: string[] = [];
  for (const name of EXTRACTED) {
    const now = rowsOf(portal, name);
    const rows = rowsOf(table, name);
    const stale = [...rows].filter(([id, row]) => now.has(id) && !same(row, now.get(id)));
    if (stale.length > 0)
      breaks.push(
        `${name}: after a calm run, wrong values ${stale
          .slice(0, 8)
          .map(([id]) => id)
          .join(",")}`,
      );
    const listed = LISTED.has(name);
    const gone = [...rows.keys()].filter((id) => !now.has(id));
    if (full && listed && gone.length > 0)
      breaks.push(`${name}: after a calm full run, ${gone.length} gone records kept`);
    const calm = { start: portal, end: portal, scope: WHOLE };
    const missing = [...required(calm, name)].filter((id) => !rows.has(id));
    if (missing.length > 0)
      breaks.push(
        `${name}: after a calm run, missing ${missing.length} [${missing.slice(0, 8).join(",")}]`,
      );
  }
  return breaks;
}

/** Per table, how many keys appear more than once. */
export async function duplicateKeys(connection: DuckDBConnection): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of EXTRACTED) {
    const key = quoteIdent(RESOURCES[name].primaryKey);
    const reader = await connection.runAndReadAll(
      `SELECT (count(*) - count(DISTINCT ${key}))::INTEGER FROM ${quoteIdent(name)}`,
    );
    out.set(name, Number(reader.getRows()[0]?.[0]));
  }
  return out;
}

/** Differences between two table states, for "the database is unchanged". */
export function stateDiff(before: State, after: State): string[] {
  return EXTRACTED.filter((name) => !same([...rowsOf(before, name)], [...rowsOf(after, name)])).map(
    (name) => `${name}: changed by a failed run`,
  );
}
