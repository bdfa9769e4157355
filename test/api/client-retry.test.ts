/**
 * Retries, writes, not-found and connection handling of the client, against a scripted portal.
 */
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/api/abort.js";
import {
  AuthError,
  HttpError,
  NetworkError,
  NotFoundError,
  RetryBudgetError,
} from "../../src/api/errors.js";
import type { Logger } from "../../src/log/logger.js";
import {
  authorized,
  client,
  collectingLogger,
  failure,
  group,
  json,
  type Portal,
  startPortal,
} from "./scripted-portal.js";

describe("retries", () => {
  it("waits at least the Retry-After seconds the portal asked for", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res, n) => {
      if (n === 1)
        return json(res, 429, { code: 429, message: "slow down" }, { "retry-after": "1" });
      json(res, 200, { status: true, total: 0, result: [] });
    });
    await client(portal).listGroups();
    const [first, second] = portal.arrivalsAt("/grp/get_all");
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it("waits until the HTTP date a Retry-After names", async () => {
    const portal = await startPortal();
    let until = 0;
    portal.on("/grp/get_all", (_, res, n) => {
      if (n === 1) {
        const date = new Date(Date.now() + 2000).toUTCString();
        until = Date.parse(date);
        return json(res, 503, { code: 503, message: "maintenance" }, { "retry-after": date });
      }
      json(res, 200, { status: true, total: 0, result: [] });
    });
    await client(portal).listGroups();
    const [, second] = portal.arrivalsAt("/grp/get_all");
    expect(second?.at ?? 0).toBeGreaterThanOrEqual(until);
  });

  it("reads survive resets, HTML pages, bad envelopes and status:false", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res, n) => {
      if (n === 1) {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"status":true,"total":1,"res');
        setTimeout(() => res.destroy(), 5);
        return;
      }
      if (n === 2) {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<html><title>Login</title></html>");
      }
      if (n === 3) return json(res, 200, { status: false, code: 500, message: "db" });
      if (n === 4) {
        res.writeHead(502, { "content-type": "text/html" });
        return res.end("<html><title>502 Bad Gateway</title></html>");
      }
      if (n === 5) return json(res, 200, { status: true, result: [] });
      json(res, 200, { status: true, total: 1, result: [group(3)] });
    });
    const lms = client(portal);
    expect((await lms.listGroups()).result).toEqual([group(3)]);
    expect(lms.stats().byOperation.listGroups).toEqual({ requests: 6, retries: 5 });
  });

  it("retries header and body timeouts of reads", async () => {
    const portal = await startPortal();
    portal.on("/product/get/5", (_, res, n) => {
      if (n === 1) return; // never answers
      if (n === 2) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.write("{"); // stalls mid-body
      }
      json(res, 200, { status: true, result: { product_id: 5 } });
    });
    const lms = client(portal, { timeoutMs: 300 });
    expect(await lms.getProduct(5)).toEqual({ product_id: 5 });
    expect(lms.stats().byOperation.getProduct?.retries).toBe(2);
  });

  it("never retries 400; a 403 gets one fresh token, then fails naming the permission", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res) => json(res, 400, { code: 400, message: "unknown column" }));
    portal.on("/product/get/1", (_, res) => json(res, 403, { code: 403, message: "forbidden" }));
    const lms = client(portal);
    const bad = await failure(
      lms.listGroups({ criterias: [{ column: "x", operator: "equal", value: 1 }] }),
    );
    expect(bad).toBeInstanceOf(HttpError);
    expect(bad.message).toBe(
      "listGroups (POST /api-v2/grp/get_all, HTTP 400): code 400: unknown column",
    );
    const forbidden = await failure(lms.getProduct(1));
    expect(forbidden).toBeInstanceOf(AuthError);
    expect(forbidden.httpStatus).toBe(403);
    expect(forbidden.message).toBe(
      "getProduct (GET /api-v2/product/get/1, HTTP 403): the portal refuses this operation to the API key, also with a fresh token (code 403: forbidden); ask the portal's administrators to allow it for this key",
    );
    expect(portal.arrivalsAt("/grp/get_all")).toHaveLength(1);
    const tries = portal.arrivalsAt("/product/get/1");
    expect(tries).toHaveLength(2);
    expect(tries[1]?.authorization).toBe(portal.issued[1]);
    expect(portal.issued).toHaveLength(2);
  });

  it("gives up after maxAttempts with a RetryBudgetError carrying the last failure", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res) => json(res, 503, { code: 503, message: "down" }));
    const error = await failure(client(portal, { maxAttempts: 3 }).listGroups());
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect(error.cause).toBeInstanceOf(HttpError);
    expect(error.message).toBe(
      "listGroups (POST /api-v2/grp/get_all, HTTP 503): gave up after 3 attempts; last: code 503: down",
    );
    expect(portal.arrivalsAt("/grp/get_all")).toHaveLength(3);
  });

  it("an unreachable portal ends in a message naming the address", async () => {
    const portal = await startPortal();
    const { baseUrl } = portal;
    await portal.close();
    const error = await failure(client({ baseUrl }, { maxAttempts: 2 }).listGroups());
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect(error.cause).toBeInstanceOf(NetworkError);
    expect(error.message).toContain("authenticate (POST /api-v2/token)");
    expect(error.message).toContain(
      `could not connect to ${new URL(baseUrl).origin} (ECONNREFUSED)`,
    );
  });
});

describe("writes", () => {
  it("are not retried after a reset, a 503 or a timeout", async () => {
    const portal = await startPortal();
    portal.on("/grp/edit/1", (_, res) => res.destroy());
    portal.on("/grp/edit/2", (_, res) => json(res, 503, { code: 503, message: "busy" }));
    portal.on("/user_grp/create", () => {}); // never answers
    const lms = client(portal, { timeoutMs: 300 });
    expect(await failure(lms.editGroup(1, { grp_name: "a" }))).toBeInstanceOf(NetworkError);
    expect(await failure(lms.editGroup(2, { grp_name: "b" }))).toBeInstanceOf(HttpError);
    const timeout = await failure(
      lms.createUserGroup({ user_grp_grp_id: 1, user_grp_user_id: 2, user_grp_group_admin: 0 }),
    );
    expect((timeout as NetworkError).phase).toBe("headers_timeout");
    expect(portal.arrivalsAt("/grp/edit/1")).toHaveLength(1);
    expect(portal.arrivalsAt("/grp/edit/2")).toHaveLength(1);
    expect(portal.arrivalsAt("/user_grp/create")).toHaveLength(1);
  });

  it("are retried when the connection was refused, and applied once", async () => {
    const probe = await startPortal();
    const port = probe.port;
    await probe.close();
    const logger = collectingLogger();
    let started: Promise<Portal> | undefined;
    const quietLogger: Logger = {
      ...logger,
      debug: (message, fields) => {
        logger.debug(message, fields);
        started ??= startPortal(port).then((portal) => {
          portal.on("/grp/edit/9", (a, res) => {
            if (authorized(portal, a, res)) json(res, 200, { status: true, result: group(9) });
          });
          return portal;
        });
      },
    };
    const lms = client(
      { baseUrl: `http://127.0.0.1:${port}/api-v2` },
      {
        logger: quietLogger,
        retryBaseMs: 100,
        retryMaxMs: 200,
        maxAttempts: 10,
      },
    );
    const edited = await lms.editGroup(9, { grp_name: "renamed" });
    expect(edited.grp_id).toBe(9);
    const portal = await started;
    expect(portal?.arrivalsAt("/grp/edit/9")).toHaveLength(1);
    expect(JSON.parse(portal?.arrivalsAt("/grp/edit/9")[0]?.body ?? "")).toEqual({
      grp_name: "renamed",
    });
  });

  it("an edit of an unknown id rejects with NotFoundError", async () => {
    const portal = await startPortal();
    portal.on("/product_access/edit/77", (_, res) =>
      json(res, 404, { code: 404, message: "not found" }),
    );
    const error = await failure(
      client(portal).editProductAccess(77, { product_access_status: "expired" }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain(
      "editProductAccess (POST /api-v2/product_access/edit/77, HTTP 404)",
    );
  });
});

describe("not found", () => {
  it("get* answer null for each form of not-found, and keep a found record", async () => {
    const portal = await startPortal();
    portal.on("/product/get/1", (_, res) =>
      json(res, 404, { code: 404, message: "no such product" }),
    );
    portal.on("/product/get/2", (_, res) =>
      json(res, 200, { status: false, code: 404, message: "nf" }),
    );
    portal.on("/product/get/3", (_, res) => json(res, 200, { status: true, result: null }));
    portal.on("/product/get/4", (_, res) =>
      json(res, 200, { status: true, result: { product_id: 4 } }),
    );
    portal.on("/grp/get_by_external_id/a%2Fb", (_, res) =>
      json(res, 404, { code: 404, message: "nf" }),
    );
    const lms = client(portal);
    expect(await lms.getProduct(1)).toBeNull();
    expect(await lms.getProduct(2)).toBeNull();
    expect(await lms.getProduct(3)).toBeNull();
    expect(await lms.getProduct(4)).toEqual({ product_id: 4 });
    // The external id is encoded, so a slash cannot change the path.
    expect(await lms.getGroupByExternalId("a/b")).toBeNull();
    expect(portal.arrivals.filter((a) => a.path.startsWith("/product/get/"))).toHaveLength(4);
  });

  it("takes of a user the portal does not know are empty", async () => {
    const portal = await startPortal();
    portal.on("/take/get_all_for_user/5", (_, res) =>
      json(res, 404, { code: 404, message: "no user" }),
    );
    const lms = client(portal);
    expect(await lms.listTakesForUser(5)).toEqual({ total: 0, result: [] });
    const pages = [];
    for await (const page of lms.takePages(5)) pages.push(page);
    expect(pages).toEqual([{ start: 0, limit: 500, total: 0, records: [], reread: false }]);
  });
});

describe("connections and cancellation", () => {
  it("never opens more connections than the concurrency", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res) =>
      setTimeout(() => json(res, 200, { status: true, total: 0, result: [] }), 5),
    );
    const lms = client(portal, { concurrency: 3 });
    await Promise.all(Array.from({ length: 30 }, () => lms.listGroups()));
    expect(portal.connections).toBeLessThanOrEqual(3);
  });

  it("aborting the client's signal rejects calls in flight and queued", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", () => {}); // never answers
    const controller = new AbortController();
    const lms = client(portal, { concurrency: 2, signal: controller.signal });
    await lms.authenticate();
    const calls = Array.from({ length: 5 }, () =>
      lms.listGroups().then(
        () => "done",
        (e: unknown) => e,
      ),
    );
    await sleep(50);
    controller.abort(new Error("user pressed Ctrl-C"));
    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) expect((outcome as Error).message).toBe("user pressed Ctrl-C");
  });
});
