/**
 * `user_grp.create` asking for a link that exists with another `user_grp_group_admin`: the
 * interface cannot edit a link, so it stays, and the person is warned, whether the local database
 * knew the link or the check before the create found it in the portal (made since the extract).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(79);
});
afterAll(async () => {
  await fx.close();
});

const adminOf = (userId: number, groupId: number) =>
  fx.sim.data
    .list("user_grp")
    .find((l) => l.user_grp_user_id === userId && l.user_grp_grp_id === groupId)
    ?.user_grp_group_admin;

describe("apply: a link that exists with another admin value", () => {
  it("made in the portal since the extract: found, left as it is, and warned about", async () => {
    const group = fx.sim.data.list("grp").at(1)?.grp_id as number;
    const [theirs, ours] = fx.outsiders(group, 2);
    if (theirs === undefined || ours === undefined) throw new Error("too few outsiders");
    fx.sim.data.createUserGroup({
      user_grp_user_id: theirs,
      user_grp_grp_id: group,
      user_grp_group_admin: 0,
    });
    const path = await csvFile(fx.dir, "admins.csv", [
      "user_grp_user_id,user_grp_grp_id,user_grp_group_admin",
      `${theirs},${group},1`,
      `${ours},${group},1`,
    ]);
    const creates = fx.sim.stats.byOperation.get("user_grp/create") ?? 0;
    const result = await fx.run(["apply", path, "--op", "user_grp.create", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    expect((fx.sim.stats.byOperation.get("user_grp/create") ?? 0) - creates).toBe(1);
    expect(adminOf(theirs, group)).toBe(0);
    expect(adminOf(ours, group)).toBe(1);
    expect(result.stderr).toContain(
      `line 2: user ${theirs} is already in group ${group} with user_grp_group_admin 0; the interface cannot change a link, so it stays`,
    );
    expect(result.stderr).not.toContain(`line 3: user ${ours}`);
  });
});
