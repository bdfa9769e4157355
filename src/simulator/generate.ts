/**
 * Builds a whole portal from a seed: the shape of the data (how many of what, who belongs where)
 * is decided here; the records themselves come from PortalGenerator and the field rules.
 *
 * Determinism: the same options give byte-identical data. Each user draws from its own
 * sub-generator (seeded from the seed and the user's position), so its links, access records and
 * takes do not depend on how many random numbers earlier users consumed.
 */
import { DAY } from "./dates.js";
import { MAX_GROUP_DEPTH, PortalGenerator } from "./portal-generator.js";
import { deriveSeed, Rng } from "./prng.js";

/** What to generate. */
export interface GenerateOptions {
  seed: number;
  users: number;
  /** Average takes per user (each user gets 0 to twice this many). */
  takesPerUser: number;
  /** Reference "now" of the generated dates, epoch seconds. */
  now: number;
  /** Product ids referenced by records but absent from the portal. */
  deletedProducts: number;
}

const USERS_PER_GROUP = 25;
const MIN_GROUPS = 5;

/** ~1 product per 20 users, at least 10, at most 300. */
export function productCount(users: number): number {
  return Math.max(10, Math.min(300, Math.round(users / 20)));
}

function groupCount(users: number): number {
  return Math.max(MIN_GROUPS, Math.round(users / USERS_PER_GROUP));
}

export function generatePortal(options: GenerateOptions): PortalGenerator {
  const { seed, users, takesPerUser, now, deletedProducts } = options;
  const products = productCount(users);
  const groups = groupCount(users);
  const gen = new PortalGenerator(now, {
    grp: groups + 64,
    user_grp: Math.ceil(users * 1.6) + 64,
    user: users + 16,
    product: products + 16,
    product_access: Math.ceil(users * 2.6) + 64,
    take: Math.ceil(users * takesPerUser * 1.02) + 1024,
    svc_availability: products * 3 + 64,
    availability_group: products * 3 + 64,
  });
  const rng = new Rng(deriveSeed(seed, 1));

  buildGroups(gen, rng, groups);
  const userIds: number[] = [];
  for (let i = 0, id = 1000; i < users; i++) {
    id += rng.chance(0.9) ? 1 : rng.int(2, 5);
    userIds.push(id);
  }
  buildProducts(gen, rng, products, deletedProducts, userIds);
  const existing = gen.productIds();
  for (let i = 0; i < users; i++) {
    const userRng = new Rng(deriveSeed(seed, 2, i));
    buildUser(gen, userRng, userIds[i] as number, i, { groups, takesPerUser, existing });
  }
  buildAvailability(gen, new Rng(deriveSeed(seed, 3)), existing);
  return gen;
}

/**
 * The first groups form one chain as deep as allowed, so clients meet the deepest nesting; the
 * rest are roots (about one in seven) or children of a group that is not yet at the deepest level.
 */
function buildGroups(gen: PortalGenerator, rng: Rng, count: number): void {
  const open: number[] = [];
  for (let i = 0; i < count; i++) {
    let parent: number | null = null;
    if (i > 0 && i < MAX_GROUP_DEPTH) parent = i;
    else if (i >= MAX_GROUP_DEPTH && open.length > 0 && !rng.chance(0.15)) parent = rng.pick(open);
    const id = gen.addGroup(rng, parent, gen.now - rng.int(900 * DAY, 1_800 * DAY));
    if (gen.depthOf(id) < MAX_GROUP_DEPTH) open.push(id);
  }
}

/** Deleted products take ids spread through the id range, so they are not all at one end. */
function buildProducts(
  gen: PortalGenerator,
  rng: Rng,
  count: number,
  deleted: number,
  userIds: readonly number[],
): void {
  const total = count + deleted;
  const gone = new Set<number>();
  for (let k = 1; k <= deleted; k++) gone.add(Math.max(1, Math.round((k * total) / (deleted + 1))));
  for (let id = 1; gone.size < deleted; id++) gone.add(total + id);
  for (let id = 1; id <= total + deleted; id++) {
    if (gone.has(id)) {
      gen.reserveDeletedProduct(id);
      continue;
    }
    if (gen.tables.product.length >= count) break;
    const author = userIds.length > 0 ? rng.pick(userIds) : undefined;
    gen.addProduct(rng, id, gen.now - rng.int(60 * DAY, 1_500 * DAY), author);
  }
}

interface UserPlan {
  groups: number;
  takesPerUser: number;
  existing: readonly number[];
}

/**
 * One user with 1-3 groups, 1-4 access records and a random number of takes (mean
 * takesPerUser). The first users each reference one deleted product in an access record and a
 * take, so every deleted id is met by a client that reads everything.
 */
function buildUser(
  gen: PortalGenerator,
  rng: Rng,
  id: number,
  index: number,
  plan: UserPlan,
): void {
  const groupTotal = rng.chance(0.6) ? 1 : rng.chance(0.75) ? 2 : 3;
  const groupIds = rng.sample(plan.groups, groupTotal).map((g) => g + 1);
  gen.addUser(rng, id, groupIds, gen.now - rng.int(1 * DAY, 1_100 * DAY));

  const deleted = gen.deletedProductIds[index];
  const accessed = rng
    .sample(plan.existing.length, rng.int(1, 4))
    .map((p) => plan.existing[p] as number);
  if (deleted !== undefined) accessed[0] = deleted;
  else if (gen.deletedProductIds.length > 0 && rng.chance(0.01))
    accessed[0] = rng.pick(gen.deletedProductIds);
  for (const productId of accessed) gen.addAccess(rng, id, productId);

  let takes = Math.floor(rng.next() * (2 * plan.takesPerUser + 1));
  if (deleted !== undefined) takes = Math.max(takes, 1);
  for (let t = 0; t < takes; t++) {
    let productId = rng.chance(0.75) ? rng.pick(accessed) : rng.pick(plan.existing);
    if (t === 0 && deleted !== undefined) productId = deleted;
    gen.addTake(rng, id, productId);
  }
}

/**
 * One or two availability groups per product (the first ones on deleted products), one or two
 * availabilities per availability group, and a few availabilities of another target type
 * (`product`), which a client filtering on `availability_group` must leave out.
 */
function buildAvailability(gen: PortalGenerator, rng: Rng, existing: readonly number[]): void {
  const targets = [...gen.deletedProductIds, ...existing];
  const groupIds: number[] = [];
  for (const productId of targets) {
    const count = rng.chance(0.5) ? 1 : 2;
    for (let order = 1; order <= count; order++)
      groupIds.push(gen.addAvailabilityGroup(rng, productId, order));
  }
  for (const groupId of groupIds) {
    gen.addAvailability(rng, "availability_group", groupId);
    if (rng.chance(0.15)) gen.addAvailability(rng, "availability_group", groupId);
  }
  const extra = Math.max(2, Math.round(existing.length / 4));
  for (let i = 0; i < extra; i++) gen.addAvailability(rng, "product", rng.pick(existing));
}
