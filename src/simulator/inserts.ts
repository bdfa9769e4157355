/**
 * Records that appear while a client pages (fault `insertWhilePaging`): each is created "now"
 * and no older than anything else in its table, so it lists first and shifts every later
 * offset by one, as a busy live portal does.
 */
import type { ListedName } from "./listed-name.js";
import { insertTime } from "./mutations.js";
import { MAX_GROUP_DEPTH, type PortalGenerator } from "./portal-generator.js";
import type { Rng } from "./prng.js";
import type { Table } from "./table.js";

/** A random existing primary key of a table, or undefined when it is empty. */
function randomKey(table: Table, rng: Rng): number | undefined {
  if (table.length === 0) return undefined;
  const keys = table.store.numeric(table.store.spec.primaryKey);
  return keys[rng.int(0, table.length - 1)];
}

function insertOne(
  gen: PortalGenerator,
  rng: Rng,
  name: ListedName,
  parentId?: number,
): number | undefined {
  const { tables } = gen;
  const at = insertTime(tables[name]);
  const userId = parentId ?? randomKey(tables.user, rng);
  switch (name) {
    case "grp": {
      const parent = randomKey(tables.grp, rng);
      const usable =
        parent !== undefined && gen.depthOf(parent) < MAX_GROUP_DEPTH && rng.chance(0.8);
      return gen.addGroup(rng, usable ? parent : null, at);
    }
    case "user_grp": {
      if (userId === undefined) return undefined;
      const linked = new Set(
        tables.user_grp
          .childRows(userId)
          .map((row) => tables.user_grp.store.get(row, "user_grp_grp_id")),
      );
      for (let attempt = 0; attempt < 10; attempt++) {
        const groupId = randomKey(tables.grp, rng);
        if (groupId === undefined || linked.has(groupId)) continue;
        const id = gen.addLink(rng, userId, groupId, -1, at);
        gen.renameInUser(userId);
        return id;
      }
      return undefined;
    }
    case "product_access": {
      const productId = rng.pick(gen.productIds());
      return userId === undefined ? undefined : gen.addAccess(rng, userId, productId, at);
    }
    case "svc_availability": {
      const groupId = randomKey(tables.availability_group, rng);
      if (groupId !== undefined) return gen.addAvailability(rng, "availability_group", groupId, at);
      return gen.addAvailability(rng, "product", rng.pick(gen.productIds()), at);
    }
    case "take": {
      if (userId === undefined || tables.user.store.rowOf(userId) < 0) return undefined;
      return gen.addTake(rng, userId, rng.pick(gen.productIds()), at);
    }
  }
}

/** Inserts up to `count` records of `name` (take: of user `parentId`); answers the new ids. */
export function insertRecords(
  gen: PortalGenerator,
  rng: Rng,
  name: ListedName,
  count: number,
  parentId?: number,
): number[] {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = insertOne(gen, rng, name, parentId);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}
