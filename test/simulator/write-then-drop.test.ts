/** The writeThenDropRate fault: the write happens, the answer never comes. Reads are untouched. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/spawn-cli.js";
import { call, tokenFor } from "./http.js";

let sim: RunningSimulator;
let token: string;
beforeAll(async () => {
  sim = await startSimulator({ users: 40, takesPerUser: 1, seed: 9 });
  token = await tokenFor(sim.baseUrl);
});
afterAll(() => sim.close());

describe("writeThenDropRate", () => {
  it("applies an edit and a create, then drops the connection without a byte of answer", async () => {
    sim.faults.writeThenDropRate = 1;
    const group = sim.data.list("grp")[0];
    if (!group) throw new Error("no group");
    const edit = call(sim.baseUrl, "POST", `/grp/edit/${group.grp_id}`, {
      body: { grp_description: "dropped answer" },
      authorization: token,
    });
    await expect(edit).rejects.toThrow(/fetch failed/);
    expect(sim.data.get("grp", group.grp_id)?.grp_description).toBe("dropped answer");

    const user = sim.data
      .userIds()
      .find(
        (u) =>
          !sim.data
            .list("user_grp")
            .some((l) => l.user_grp_user_id === u && l.user_grp_grp_id === group.grp_id),
      ) as number;
    const links = sim.data.count("user_grp");
    const create = call(sim.baseUrl, "POST", "/user_grp/create", {
      body: { user_grp_user_id: user, user_grp_grp_id: group.grp_id, user_grp_group_admin: 0 },
      authorization: token,
    });
    await expect(create).rejects.toThrow(/fetch failed/);
    expect(sim.data.count("user_grp")).toBe(links + 1);

    // A read is not a write: it is answered.
    const list = await call(sim.baseUrl, "POST", "/grp/get_all", {
      body: { limit: 2 },
      authorization: token,
    });
    expect(list.status).toBe(200);
    // A refused write is answered with its refusal (nothing was applied, nothing to lose).
    const refused = await call(sim.baseUrl, "POST", "/grp/edit/99999999", {
      body: { grp_description: "x" },
      authorization: token,
    });
    expect(refused.status).toBe(404);
    sim.faults.writeThenDropRate = 0;
  });

  it("simulate --write-then-drop-rate checks its value", async () => {
    const bad = await runCli(["simulate", "--write-then-drop-rate", "2"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("write-then-drop-rate");
  });
});
