/**
 * The extraction plan: which resources come from paginated lists and which are fanned out from
 * ids found in other resources' records (docs/api.md §2).
 *
 * The spec has no list endpoint for users or products, so:
 * - takes are listed per user id, and user ids come from user-group links and product access;
 * - availability groups are read one id at a time, ids from availabilities whose target type is
 *   `availability_group`;
 * - products are read one id at a time, ids from product access, takes and availability groups.
 */
import { UsageError } from "../cli-error.js";
import { EXTRACTED, type ExtractedName } from "../resources/registry.js";

export type ListName = "grp" | "user_grp" | "product_access" | "svc_availability";
export type FanoutName = "take" | "availability_group" | "product";

/** Where fan-out ids come from: a field of a parent's records, optionally filtered. */
export interface IdSource {
  readonly parent: ExtractedName;
  readonly field: string;
  /** Only records where this field equals this value carry a usable id. */
  readonly when?: { readonly field: string; readonly equals: string };
}

export const LISTS: readonly ListName[] = ["grp", "user_grp", "product_access", "svc_availability"];

export const FANOUT: Readonly<Record<FanoutName, { readonly sources: readonly IdSource[] }>> = {
  take: {
    sources: [
      { parent: "user_grp", field: "user_grp_user_id" },
      { parent: "product_access", field: "product_access_user_id" },
    ],
  },
  availability_group: {
    sources: [
      {
        parent: "svc_availability",
        field: "svc_availability_target_id",
        when: { field: "svc_availability_target_type", equals: "availability_group" },
      },
    ],
  },
  product: {
    sources: [
      { parent: "product_access", field: "product_access_product_id" },
      { parent: "take", field: "take_product_id" },
      { parent: "availability_group", field: "availability_group_product_id" },
    ],
  },
};

export function isList(name: ExtractedName): name is ListName {
  return (LISTS as readonly string[]).includes(name);
}

/** Id sources feeding `child` whose parent is `parent`. */
export function sourcesFrom(parent: ExtractedName): { child: FanoutName; source: IdSource }[] {
  const found: { child: FanoutName; source: IdSource }[] = [];
  for (const [child, { sources }] of Object.entries(FANOUT) as [
    FanoutName,
    { sources: readonly IdSource[] },
  ][]) {
    for (const source of sources) if (source.parent === parent) found.push({ child, source });
  }
  return found;
}

/**
 * The resources a run extracts, in registry order. `only` narrows the set; a fan-out resource
 * whose parents are not extracted in the same run takes its ids from the parents' tables in the
 * database (what an earlier run loaded).
 */
export function selectResources(only: readonly string[] | undefined): ExtractedName[] {
  if (!only || only.length === 0) return [...EXTRACTED];
  const unknown = only.filter((name) => !(EXTRACTED as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `--only: unknown resource ${unknown.map((n) => `"${n}"`).join(", ")}; choose from ${EXTRACTED.join(", ")}`,
    );
  }
  return EXTRACTED.filter((name) => only.includes(name));
}

/** Reads the id a source yields from one raw record, or undefined when it carries none. */
export function idFrom(source: IdSource, record: Record<string, unknown>): number | undefined {
  if (source.when && record[source.when.field] !== source.when.equals) return undefined;
  const value = record[source.field];
  const id = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}
