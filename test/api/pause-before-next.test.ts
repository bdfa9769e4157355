/**
 * A `Retry-After` holds every request from the moment its answer arrives: the request waiting for
 * the slot that answer frees must not go out before the pause is set (the answer's own processing
 * waits its turn behind other answers, and the freed slot is taken at once), nor a request that
 * was waiting for its `--rate` slot when the pause began.
 */
import { describe, expect, it } from "vitest";
import type { ClientOptions } from "../../src/api/client.js";
import { authorized, client, group, json, startPortal } from "./scripted-portal.js";

type ClientOptionsPart = Partial<ClientOptions>;

describe("a Retry-After pause", () => {
  const cases: [string, ClientOptionsPart, boolean][] = [
    ["a fixed concurrency of 1", { concurrency: 1 }, false],
    ["auto at one request in flight", { concurrency: "auto", adaptive: { probeLimit: 1 } }, false],
    [
      "auto, said in a status:false envelope",
      { concurrency: "auto", adaptive: { probeLimit: 1 } },
      true,
    ],
  ];
  it.each(cases)(
    "holds the request queued behind the refused one (%s)",
    async (_, options, envelope) => {
      const portal = await startPortal();
      let pausedUntil = 0;
      portal.on("/grp/get_all", (arrival, res, n) => {
        if (!authorized(portal, arrival, res)) return;
        if (n === 1) {
          pausedUntil = Date.now() + 1000;
          if (envelope) {
            return json(res, 200, {
              status: false,
              code: 429,
              message: "too many requests",
              retry_after: 1,
            });
          }
          return json(
            res,
            429,
            { code: 429, message: "too many requests" },
            { "retry-after": "1" },
          );
        }
        json(res, 200, { status: true, total: 1, result: [group(1)] });
      });
      portal.on("/user_grp/get_all", (arrival, res) => {
        if (!authorized(portal, arrival, res)) return;
        json(res, 200, { status: true, total: 0, result: [] });
      });
      const lms = client(portal, options);
      await lms.authenticate();
      // The groups' request is sent first and refused; the links' waits for its slot meanwhile.
      await Promise.all([lms.listGroups(), lms.listUserGroups()]);
      const after = portal.arrivals.filter((a) => a.path !== "/token").slice(1);
      expect(after.map((a) => a.path).sort()).toEqual(["/grp/get_all", "/user_grp/get_all"]);
      for (const arrival of after) expect(arrival.at).toBeGreaterThanOrEqual(pausedUntil);
    },
  );

  it("holds the requests waiting for their rate slot when a second pause begins", async () => {
    const portal = await startPortal();
    const refusedUntil: number[] = [];
    const users = [1, 2, 3, 4, 5, 6];
    for (const id of users) {
      portal.on(`/take/get_all_for_user/${id}`, (arrival, res) => {
        if (!authorized(portal, arrival, res)) return;
        // The first two requests to arrive are refused: the second as the first pause ends,
        // while the requests it held go out one rate slot after another.
        if (refusedUntil.length < 2) {
          refusedUntil.push(Date.now() + 1000);
          return json(
            res,
            429,
            { code: 429, message: "too many requests" },
            { "retry-after": "1" },
          );
        }
        json(res, 200, { status: true, total: 0, result: [] });
      });
    }
    const lms = client(portal, { concurrency: 8, rate: 10 });
    await lms.authenticate();
    await Promise.all(users.map((id) => lms.listTakesForUser(id)));
    const lists = portal.arrivals.filter((a) => a.path !== "/token");
    const second = lists.findIndex((a, i) => i > 0 && a.at >= (refusedUntil[0] ?? 0));
    expect(refusedUntil).toHaveLength(2);
    for (const arrival of lists.slice(second + 1)) {
      expect(arrival.at).toBeGreaterThanOrEqual(refusedUntil[1] ?? 0);
    }
  });
});
