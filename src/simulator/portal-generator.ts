/**
 * Adds one record of a resource at a time, keeping the portal's cross-record invariants: ids
 * ascend, references point at existing records (or at a deliberately deleted product), a user's
 * `groups` list names exactly the groups it is linked to, and dates never precede what they
 * depend on. Both the initial build (generate.ts) and the records inserted while a client pages
 * go through here.
 */
import { RESOURCES } from "../resources/registry.js";
import type { ResourceName } from "../resources/types.js";
import type { StoredValue } from "./column-store.js";
import { DAY } from "./dates.js";
import { RecordFiller } from "./fill.js";
import type { Rng } from "./prng.js";
import { PRODUCT_RULES } from "./product-rules.js";
import { RECORD_RULES } from "./record-rules.js";
import { Table } from "./table.js";
import { DEPARTMENTS, NAME_POOLS, PRODUCT_LANGUAGES, REGIONS } from "./vocabulary.js";

/** One table per resource. */
export type Tables = { readonly [R in ResourceName]: Table };

/** The deepest nesting of groups (a root is level 1). */
export const MAX_GROUP_DEPTH = 4;

/** A deleted product's assumed minimum score, for takes that reference it. */
const DEFAULT_MIN_SCORE = 70;

/** A number in [lo, hi]; when the range is empty (hi < lo), lo. */
export function between(rng: Rng, lo: number, hi: number): number {
  return hi <= lo ? lo : rng.int(lo, hi);
}

export class PortalGenerator {
  readonly tables: Tables;
  /** Reference "now" of generated dates, epoch seconds. */
  readonly now: number;
  /** Product ids that are referenced but do not exist (GET answers 404). */
  readonly deletedProductIds: number[] = [];
  private readonly fillers: { readonly [R in ResourceName]: RecordFiller };
  private readonly groupDepth = new Map<number, number>();
  private readonly minScore = new Map<number, number>();

  constructor(now: number, capacity: Readonly<Record<ResourceName, number>>) {
    this.now = now;
    const table = (name: ResourceName, parentField?: string) =>
      new Table(RESOURCES[name], capacity[name], parentField);
    this.tables = {
      grp: table("grp"),
      user_grp: table("user_grp", "user_grp_user_id"),
      user: table("user"),
      product: table("product"),
      product_access: table("product_access"),
      take: table("take", "take_user_id"),
      svc_availability: table("svc_availability"),
      availability_group: table("availability_group"),
    };
    const filler = (name: ResourceName) =>
      new RecordFiller(RESOURCES[name], name === "product" ? PRODUCT_RULES : RECORD_RULES);
    this.fillers = {
      grp: filler("grp"),
      user_grp: filler("user_grp"),
      user: filler("user"),
      product: filler("product"),
      product_access: filler("product_access"),
      take: filler("take"),
      svc_availability: filler("svc_availability"),
      availability_group: filler("availability_group"),
    };
  }

  /** Depth of a group (root = 1), or 0 for an unknown id. */
  depthOf(groupId: number): number {
    return this.groupDepth.get(groupId) ?? 0;
  }

  /** Product ids that exist. */
  productIds(): number[] {
    return [...this.minScore.keys()];
  }

  /** A group under `parentId` (null for a root); answers its id. */
  addGroup(rng: Rng, parentId: number | null, created: number): number {
    const id = this.tables.grp.lastKey + 1;
    const depth = parentId === null ? 1 : this.depthOf(parentId) + 1;
    this.groupDepth.set(id, depth);
    const d = DEPARTMENTS[id % DEPARTMENTS.length] ?? DEPARTMENTS[0];
    this.add("grp", rng, {
      grp_id: id,
      grp_parent_id: parentId,
      grp_created_date: created,
      _department: d,
      _region: rng.pick(REGIONS),
    });
    return id;
  }

  /** A product (`ordinal` numbers the titles); `author` is a user id or undefined. */
  addProduct(rng: Rng, id: number, created: number, author: number | undefined): number {
    const row = this.add("product", rng, {
      product_id: id,
      product_created_date: created,
      _language: PRODUCT_LANGUAGES[id % PRODUCT_LANGUAGES.length],
      _ordinal: Math.floor(id / PRODUCT_LANGUAGES.length),
      _author: author,
      _editor: author,
    });
    const min = this.tables.product.store.get(row, "product_min_score");
    this.minScore.set(id, typeof min === "number" ? min : DEFAULT_MIN_SCORE);
    return id;
  }

  /** Marks a product id as referenced-but-deleted: it never gets a record. */
  reserveDeletedProduct(id: number): void {
    this.deletedProductIds.push(id);
  }

  /** A user with the given id, linked to `groupIds`; answers the user's row. */
  addUser(rng: Rng, id: number, groupIds: readonly number[], created: number): number {
    const row = this.add("user", rng, {
      user_id: id,
      user_created_date: created,
      groups: [],
      _names: rng.pick(NAME_POOLS),
    });
    for (const groupId of groupIds) this.addLink(rng, id, groupId, -1, created);
    this.renameInUser(id);
    return row;
  }

  /**
   * Links a user to a group no earlier than both exist and than `notBefore`. `admin` < 0 lets
   * the rules decide. Call `renameInUser` afterwards to update the user's `groups` list.
   */
  addLink(rng: Rng, userId: number, groupId: number, admin: number, notBefore: number): number {
    const id = this.tables.user_grp.lastKey + 1;
    const groupCreated = this.dateOf("grp", groupId, "grp_created_date");
    const userCreated = this.dateOf("user", userId, "user_created_date");
    const base = Math.max(groupCreated, userCreated, notBefore);
    this.add("user_grp", rng, {
      user_grp_id: id,
      user_grp_grp_id: groupId,
      user_grp_user_id: userId,
      user_grp_group_admin: admin < 0 ? undefined : admin,
      user_grp_created_date:
        base > this.now ? base : between(rng, base, Math.min(base + 10 * DAY, this.now)),
    });
    return id;
  }

  /** An access record of a user to a product, created at `created` or at random after both. */
  addAccess(rng: Rng, userId: number, productId: number, created?: number): number {
    const id = this.tables.product_access.lastKey + 1;
    this.add("product_access", rng, {
      product_access_id: id,
      product_access_product_id: productId,
      product_access_user_id: userId,
      product_access_created_date: created ?? this.randomAfter(rng, userId, productId),
    });
    return id;
  }

  /** A take of a user on a product, created at `created` or at random after both exist. */
  addTake(rng: Rng, userId: number, productId: number, created?: number): number {
    const id = this.tables.take.lastKey + 1;
    this.add("take", rng, {
      take_id: id,
      take_product_id: productId,
      take_user_id: userId,
      take_created_date: created ?? this.randomAfter(rng, userId, productId),
      _minScore: this.minScore.get(productId) ?? DEFAULT_MIN_SCORE,
    });
    return id;
  }

  /** An availability group of a product, `order`-th of that product. */
  addAvailabilityGroup(rng: Rng, productId: number, order: number, created?: number): number {
    const id = this.tables.availability_group.lastKey + 1;
    const base = this.productCreated(productId);
    this.add("availability_group", rng, {
      availability_group_id: id,
      availability_group_product_id: productId,
      availability_group_order: order,
      availability_group_created_date:
        created ?? between(rng, base, Math.min(base + 30 * DAY, this.now)),
    });
    return id;
  }

  /** An availability of a target (`availability_group` or `product`). */
  addAvailability(rng: Rng, targetType: string, targetId: number, created?: number): number {
    const id = this.tables.svc_availability.lastKey + 1;
    const base =
      targetType === "availability_group"
        ? this.dateOf("availability_group", targetId, "availability_group_created_date")
        : this.productCreated(targetId);
    this.add("svc_availability", rng, {
      svc_availability_id: id,
      svc_availability_target_type: targetType,
      svc_availability_target_id: targetId,
      svc_availability_created_date:
        created ?? between(rng, base, Math.min(base + 10 * DAY, this.now)),
    });
    return id;
  }

  /** Rewrites a user's `groups` list from its links (after a link or a group rename). */
  renameInUser(userId: number): void {
    const users = this.tables.user.store;
    const row = users.rowOf(userId);
    if (row < 0) return;
    const links = this.tables.user_grp;
    const groups = this.tables.grp.store;
    const names: string[] = [];
    for (const link of links.childRows(userId)) {
      const groupRow = groups.rowOf(links.store.get(link, "user_grp_grp_id") as number);
      const name = groupRow < 0 ? null : groups.get(groupRow, "grp_name");
      if (typeof name === "string") names.push(name);
    }
    users.set(row, "groups", names);
  }

  private add(name: ResourceName, rng: Rng, facts: Record<string, unknown>): number {
    const values = this.fillers[name].fill(facts, rng, this.now);
    return this.tables[name].insert(values);
  }

  private randomAfter(rng: Rng, userId: number, productId: number): number {
    const base = Math.max(
      this.dateOf("user", userId, "user_created_date"),
      this.productCreated(productId),
    );
    return between(rng, base, this.now - 3_600);
  }

  private productCreated(productId: number): number {
    const row = this.tables.product.store.rowOf(productId);
    // A deleted product's creation date is unknown: treat it as old.
    if (row < 0) return this.now - 1_000 * DAY;
    return this.tables.product.store.get(row, "product_created_date") as number;
  }

  private dateOf(name: ResourceName, id: number, field: string): number {
    const store = this.tables[name].store;
    const row = store.rowOf(id);
    const value: StoredValue = row < 0 ? null : store.get(row, field);
    return typeof value === "number" ? value : this.now - 1_000 * DAY;
  }
}
