/**
 * `user_grp.create` on a portal that answers each list page in a new order (the interface
 * promises none): a user with more links than one page holds (10) must still have each one found
 * before a create is sent, and a link absent from all of them is created once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  // 600 people: 24 groups, so one person can be in more groups than a page of links holds.
  fx = await startFixture(83, 600);
});
afterAll(async () => {
  await fx.close();
});

const creates = () => fx.sim.stats.byOperation.get("user_grp/create") ?? 0;

/** Puts `userId` into each of `groups` it is not in, in the portal only (not extracted). */
function joinInPortal(userId: number, groups: readonly number[]): void {
  for (const group of groups) {
    if (fx.linksOf(userId, group) > 0) continue;
    fx.sim.data.createUserGroup({
      user_grp_user_id: userId,
      user_grp_grp_id: group,
      user_grp_group_admin: 0,
    });
  }
}

describe("apply: links listed in a new order per page", () => {
  it("finds every existing link of a user in many groups, creates only the absent one", async () => {
    const groups = fx.sim.data.list("grp").map((g) => g.grp_id);
    expect(groups.length).toBeGreaterThan(20);
    const [everywhere, most] = fx.sim.data.userIds();
    if (everywhere === undefined || most === undefined) throw new Error("too few users");
    joinInPortal(everywhere, groups);
    const absent = groups.at(-1) as number;
    joinInPortal(
      most,
      groups.filter((g) => g !== absent),
    );
    const path = await csvFile(fx.dir, "unordered.csv", [
      "user_grp_user_id,user_grp_grp_id",
      ...groups.map((g) => `${everywhere},${g}`),
      `${most},${absent}`,
    ]);
    const before = creates();
    fx.sim.faults.unstableOrder = true;
    const result = await fx.run(["apply", path, "--op", "user_grp.create", "--yes"]).finally(() => {
      fx.sim.faults.unstableOrder = false;
    });
    expect(result.code, result.stderr).toBe(0);
    expect(creates() - before).toBe(1);
    for (const g of groups) expect(fx.linksOf(everywhere, g)).toBe(1);
    expect(fx.linksOf(most, absent)).toBe(1);
  });
});
