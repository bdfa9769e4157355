/** A portal where a user left every group and access while keeping their takes. */
import type { RunningSimulator } from "../../src/simulator/server.js";

/** Removes every link and access record of `user` from the portal; the user's takes stay. */
export function leaveEverything(sim: RunningSimulator, user: number): void {
  for (const link of sim.data.list("user_grp").filter((l) => l.user_grp_user_id === user)) {
    sim.data.removeKey("user_grp", link.user_grp_id);
  }
  const accesses = sim.data.list("product_access");
  for (const access of accesses.filter((a) => a.product_access_user_id === user)) {
    sim.data.removeKey("product_access", access.product_access_id);
  }
}
