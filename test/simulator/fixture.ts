/** The simulated portal the operation and write tests assert against. */
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { type Client, client, tokenFor } from "./http.js";

/**
 * 300 users with 8 takes each from seed 3, a frozen clock and pages of at most 50, with a caller
 * already holding a token. The caller closes `sim`.
 */
export async function startFixture(): Promise<{ sim: RunningSimulator; api: Client }> {
  const sim = await startSimulator({
    users: 300,
    takesPerUser: 8,
    seed: 3,
    now: new Date("2026-01-15T00:00:00Z"),
    maxLimit: 50,
  });
  return { sim, api: client(sim.baseUrl, await tokenFor(sim.baseUrl)) };
}
