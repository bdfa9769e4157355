/**
 * The extraction plan, read from the registry's `extraction` entries: which resources come from
 * paginated lists and which are fanned out from ids found in other resources' records
 * (docs/api.md §2), and the order that puts every resource after the ones its ids come from.
 *
 * The spec has no list endpoint for users or products, so (see the registry):
 * - takes are listed per user id, and user ids come from user-group links and product access;
 * - availability groups are read one id at a time, ids from availabilities whose target type is
 *   `availability_group`;
 * - products are read one id at a time, ids from product access, takes and availability groups.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { IdSource } from "../load/known-ids.js";
import { EXTRACTED, type ExtractedName, RESOURCES, type Resources } from "../resources/registry.js";
import type { Extraction } from "../resources/types.js";

type KindOf<R extends ExtractedName> = Resources[R]["extraction"]["kind"];
type NamesOfKind<K extends Extraction["kind"]> = {
  [R in ExtractedName]: KindOf<R> extends K ? R : never;
}[ExtractedName];

export type ListName = NamesOfKind<"list">;
/** Resources listed once per parent id (a user's takes). */
export type PerParentName = NamesOfKind<"perParent">;
/** Resources read one id at a time (products, availability groups). */
export type LookupName = NamesOfKind<"lookup">;
export type FanoutName = PerParentName | LookupName;

/** Where fan-out ids come from: a field of an extracted parent's records, optionally filtered. */
export type { IdSource } from "../load/known-ids.js";

export function extractionOf(name: ExtractedName): Extraction {
  return RESOURCES[name].extraction;
}

export function isList(name: ExtractedName): name is ListName {
  return extractionOf(name).kind === "list";
}

export function isPerParent(name: ExtractedName): name is PerParentName {
  return extractionOf(name).kind === "perParent";
}

function isExtracted(name: string): name is ExtractedName {
  return (EXTRACTED as readonly string[]).includes(name);
}

/** The id sources of a fan-out resource; a parent that is never extracted is a registry error. */
function sourcesOf(child: ExtractedName): readonly IdSource[] {
  const extraction = extractionOf(child);
  if (extraction.kind === "list") return [];
  return extraction.idsFrom.map((source) => {
    const { parent } = source;
    if (!isExtracted(parent))
      throw new Error(`${child}: ids from ${parent}, which is not extracted`);
    return { ...source, parent };
  });
}

export const LISTS: readonly ListName[] = EXTRACTED.filter(isList);

export const FANOUT: Readonly<Record<FanoutName, { readonly sources: readonly IdSource[] }>> =
  Object.fromEntries(
    EXTRACTED.filter((name) => !isList(name)).map((name) => [name, { sources: sourcesOf(name) }]),
  ) as Record<FanoutName, { readonly sources: readonly IdSource[] }>;

/**
 * The lists, then each fan-out resource once every resource its ids come from is placed (the
 * registry's order among those ready), so a child's parents are always started before it.
 */
function dependencyOrder(): ExtractedName[] {
  const order: ExtractedName[] = [...LISTS];
  let pending = EXTRACTED.filter((name) => !isList(name)) as FanoutName[];
  while (pending.length > 0) {
    const ready = pending.find((child) =>
      FANOUT[child].sources.every((source) => order.includes(source.parent)),
    );
    if (ready === undefined) throw new Error(`fan-out ids form a cycle: ${pending.join(", ")}`);
    order.push(ready);
    pending = pending.filter((child) => child !== ready);
  }
  return order;
}

/** Every extracted resource, parents before children. */
export const DEPENDENCY_ORDER: readonly ExtractedName[] = dependencyOrder();

/** The fan-out resources, parents before children. */
export const FANOUT_ORDER: readonly FanoutName[] = DEPENDENCY_ORDER.filter(
  (name): name is FanoutName => !isList(name),
);

/** Id sources feeding `child` whose parent is `parent`. */
export function sourcesFrom(parent: ExtractedName): { child: FanoutName; source: IdSource }[] {
  const found: { child: FanoutName; source: IdSource }[] = [];
  for (const child of FANOUT_ORDER) {
    for (const source of FANOUT[child].sources)
      if (source.parent === parent) found.push({ child, source });
  }
  return found;
}

/**
 * The resources a run extracts, parents before children. `only` narrows the set; a fan-out
 * resource whose parents are not extracted in the same run takes its ids from the parents' tables
 * in the database (what an earlier run loaded).
 */
export function selectResources(only: readonly string[] | undefined): ExtractedName[] {
  if (!only || only.length === 0) return [...DEPENDENCY_ORDER];
  const unknown = only.filter((name) => !isExtracted(name));
  if (unknown.length > 0) {
    throw new LmsExportError(
      "bad-input",
      `--only: unknown resource ${unknown.map((n) => `"${n}"`).join(", ")}; choose from ${EXTRACTED.join(", ")}`,
    );
  }
  return DEPENDENCY_ORDER.filter((name) => only.includes(name));
}

/**
 * The ids a fan-out resource's own stored rows were fetched for: a take's user, an availability
 * group's or product's own id. A full run asks the portal about these too, and an incremental run
 * lists the children of a parent not among them whole (see run-extract.ts).
 */
export function storedParentIds(child: FanoutName): IdSource {
  const extraction = RESOURCES[child].extraction;
  const field =
    extraction.kind === "perParent" ? extraction.parentField : RESOURCES[child].primaryKey;
  return { parent: child, field };
}

/**
 * What a run of `resources` reads back from the database while it fetches (see
 * src/load/stored-keys.ts and run-extract.ts): a full run, the keys of its lists (to confirm
 * what they did not deliver) and the ids its fan-out resources' own stored rows were fetched for;
 * an incremental one, those ids and every source of its fan-out resources; either, the sources
 * whose parent it does not extract.
 */
export function storedReads(
  resources: readonly ExtractedName[],
  mode: "full" | "incremental",
): { lists: ListName[]; sources: IdSource[] } {
  const lists = mode === "full" ? resources.filter(isList) : [];
  const sources: IdSource[] = [];
  for (const child of FANOUT_ORDER) {
    if (!resources.includes(child)) continue;
    for (const source of FANOUT[child].sources) {
      if (mode === "incremental" || !resources.includes(source.parent)) sources.push(source);
    }
    sources.push(storedParentIds(child));
  }
  return { lists, sources };
}

/** Reads the id a source yields from one raw record, or undefined when it carries none. */
export function idFrom(source: IdSource, record: Record<string, unknown>): number | undefined {
  if (source.when && record[source.when.field] !== source.when.equals) return undefined;
  const value = record[source.field];
  const id = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}
