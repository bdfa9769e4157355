/**
 * The write operations: edits of groups, access records and users, and creation of user-group
 * links. Input is checked against the registry (request-body.ts) and against the data
 * (references must exist, a group cannot become its own ancestor, external ids stay unique).
 *
 * Every write sets the record's `*_updated_date` to the real current time, or one second after
 * its previous value if that is later, so an incremental client filtering on "updated after my
 * last run" always sees the change.
 */
import { RESOURCES } from "../resources/registry.js";
import type { ResourceSpec } from "../resources/types.js";
import type { StoredValue } from "./column-store.js";
import { nowSeconds } from "./dates.js";
import type { PortalGenerator } from "./portal-generator.js";
import type { Rng } from "./prng.js";
import { parseWrite } from "./request-body.js";
import { badRequest, notFound } from "./request-error.js";
import type { Table } from "./table.js";

/** Resources with an edit operation. */
export type EditableName = "grp" | "product_access" | "user";

/** Creation time of a record written now: never older than the table's newest, so it lists first. */
export function insertTime(table: Table): number {
  return Math.max(nowSeconds(), table.newestCreated);
}

const writableOf = (spec: ResourceSpec): readonly string[] => spec.writable ?? [];

function exists(gen: PortalGenerator, name: "grp" | "user" | "product", id: StoredValue): boolean {
  return typeof id === "number" && gen.tables[name].store.rowOf(id) >= 0;
}

function checkGroupEdit(gen: PortalGenerator, id: number, changes: Map<string, StoredValue>): void {
  const store = gen.tables.grp.store;
  if (changes.has("grp_parent_id")) {
    const wanted = changes.get("grp_parent_id") ?? null;
    if (wanted !== null && !exists(gen, "grp", wanted)) {
      throw badRequest(`grp_parent_id ${String(wanted)} matches no group`);
    }
    // Walk up from the new parent: meeting the edited group means a cycle.
    let parent: StoredValue = wanted;
    for (let steps = 0; typeof parent === "number" && steps <= store.length; steps++) {
      if (parent === id) {
        throw badRequest(`grp_parent_id ${String(wanted)} would make group ${id} its own ancestor`);
      }
      parent = store.get(store.rowOf(parent), "grp_parent_id");
    }
  }
  const externalId = changes.get("grp_external_id");
  if (typeof externalId === "string") {
    for (let row = 0; row < store.length; row++) {
      if (store.get(row, "grp_external_id") === externalId && store.get(row, "grp_id") !== id) {
        throw badRequest(`grp_external_id ${externalId} is already used by another group`);
      }
    }
  }
}

/** Users whose `groups` list names group `groupId`. */
function membersOf(gen: PortalGenerator, groupId: number): Set<number> {
  const links = gen.tables.user_grp.store;
  const groups = links.numeric("user_grp_grp_id");
  const users = links.numeric("user_grp_user_id");
  const members = new Set<number>();
  for (let row = 0; row < links.length; row++)
    if (groups[row] === groupId) members.add(users[row] as number);
  return members;
}

/** Checks and applies an edit body; answers the edited row. RequestError 404/400 otherwise. */
export function applyEdit(
  gen: PortalGenerator,
  name: EditableName,
  id: number,
  body: unknown,
): number {
  const spec: ResourceSpec = RESOURCES[name];
  const store = gen.tables[name].store;
  const row = store.rowOf(id);
  if (row < 0) throw notFound(`${name} ${id} not found`);
  const changes = parseWrite(spec, body, writableOf(spec));
  if (name === "grp") checkGroupEdit(gen, id, changes);
  const productId = changes.get("product_access_product_id");
  if (productId !== undefined && !exists(gen, "product", productId)) {
    throw badRequest(`product_access_product_id ${String(productId)} matches no product`);
  }
  for (const [field, value] of changes) store.set(row, field, value);
  if (spec.updatedField) {
    const previous = store.get(row, spec.updatedField);
    const now = nowSeconds();
    store.set(
      row,
      spec.updatedField,
      typeof previous === "number" ? Math.max(now, previous + 1) : now,
    );
  }
  if (changes.has("grp_name")) for (const userId of membersOf(gen, id)) gen.renameInUser(userId);
  return row;
}

/** Checks a create body and adds the link; answers its id. RequestError 400 otherwise. */
export function createLink(gen: PortalGenerator, rng: Rng, body: unknown): number {
  const spec: ResourceSpec = RESOURCES.user_grp;
  const changes = parseWrite(spec, body, writableOf(spec));
  const groupId = changes.get("user_grp_grp_id");
  const userId = changes.get("user_grp_user_id");
  if (typeof groupId !== "number" || typeof userId !== "number") {
    throw badRequest("user_grp_grp_id and user_grp_user_id are required integers");
  }
  if (!exists(gen, "grp", groupId)) throw badRequest(`user_grp_grp_id ${groupId} matches no group`);
  if (!exists(gen, "user", userId)) throw badRequest(`user_grp_user_id ${userId} matches no user`);
  const links = gen.tables.user_grp;
  for (const link of links.childRows(userId)) {
    if (links.store.get(link, "user_grp_grp_id") === groupId) {
      throw badRequest(`user ${userId} is already in group ${groupId}`);
    }
  }
  const admin = changes.get("user_grp_group_admin");
  const id = gen.addLink(
    rng,
    userId,
    groupId,
    typeof admin === "number" ? admin : 0,
    insertTime(links),
  );
  gen.renameInUser(userId);
  return id;
}
