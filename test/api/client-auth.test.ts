/**
 * Authentication, secrets and request shapes of the client, against a scripted portal.
 */
import { describe, expect, it } from "vitest";
import { AuthError } from "../../src/api/errors.js";
import {
  type Arrival,
  authorized,
  client,
  collectingLogger,
  failure,
  group,
  json,
  KEY,
  startPortal,
} from "./scripted-portal.js";

describe("authentication", () => {
  it("sends the raw token by default and `<scheme> <token>` when configured", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (a, res) => {
      if (authorized(portal, a, res)) json(res, 200, { status: true, total: 0, result: [] });
    });
    await client(portal).listGroups();
    await client(portal, { authScheme: "Bearer" }).listGroups();
    const [raw, bearer] = portal.arrivalsAt("/grp/get_all");
    expect(raw?.authorization).toBe(portal.issued[0]);
    expect(bearer?.authorization).toBe(`Bearer ${portal.issued[1]}`);
    expect(portal.arrivalsAt("/token").every((a) => a.authorization === undefined)).toBe(true);
  });

  it("a refused key is an AuthError naming the fix, not the key, and is not retried", async () => {
    const portal = await startPortal();
    const logger = collectingLogger();
    const error = await failure(client(portal, { apiKey: "wrong-key-123", logger }).authenticate());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain("the portal refused the API key");
    // A library caller gave the key as a string: the message names no flag or variable of the CLI.
    expect(error.message).toMatch(/: check the API key$/);
    expect(error.message).not.toMatch(/--api-key-file|LMS_API_KEY/);
    expect(error.message).toContain("POST /api-v2/token, HTTP 401");
    expect(error.message).not.toContain("wrong-key-123");
    expect(portal.arrivalsAt("/token")).toHaveLength(1);
  });

  it("renews the token once per expiry, however many requests were refused", async () => {
    const portal = await startPortal();
    const uses = new Map<string, number>();
    portal.on("/grp/get_by_external_id/ext-1", (a, res) => {
      // Answers come back in a shuffled order, so refusals of an old token keep arriving after
      // the new token was issued: those must not cause another renewal.
      const token = a.authorization ?? "";
      const accepted = portal.valid.has(token);
      if (accepted) {
        const used = (uses.get(token) ?? 0) + 1;
        uses.set(token, used);
        if (used >= 7) portal.valid.delete(token); // serves 7 requests, then expires
      }
      setTimeout(() => {
        if (accepted) json(res, 200, { status: true, result: group(1) });
        else json(res, 401, { code: 401, message: "expired token" });
      }, Math.random() * 15);
    });
    const lms = client(portal, { concurrency: 16 });
    const results = await Promise.all(
      Array.from({ length: 80 }, () => lms.getGroupByExternalId("ext-1")),
    );
    expect(results.every((g) => g?.grp_id === 1)).toBe(true);
    // 80 requests, 7 per token: 12 tokens are needed; one renewal per expiry gives exactly that.
    expect(portal.issued).toHaveLength(12);
    expect(lms.stats().reauths).toBe(11);
  });

  it("also renews when expiry arrives as a 200 {status:false} envelope", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (a, res, n) => {
      if (n === 2)
        return json(res, 200, { status: false, code: 500, message: "Token has expired" });
      if (authorized(portal, a, res))
        json(res, 200, { status: true, total: 1, result: [group(1)] });
    });
    const lms = client(portal);
    expect((await lms.listGroups()).result).toHaveLength(1);
    expect((await lms.listGroups()).result).toHaveLength(1);
    expect(portal.issued).toHaveLength(2);
    expect(lms.stats()).toMatchObject({ reauths: 1, retries: 0 });
    // The token had served, so this was expiry: the header form did not change.
    const sent = portal.arrivalsAt("/grp/get_all").map((a) => a.authorization ?? "");
    expect(sent.some((header) => header.startsWith("Bearer"))).toBe(false);
  });

  it("a portal refusing every fresh token in both forms fails with an AuthError naming --auth-scheme", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res) => json(res, 401, { code: 401, message: "no" }));
    const error = await failure(client(portal).listGroups());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain("--auth-scheme");
    expect(error.message).toContain("authScheme in the config file");
    expect(portal.issued.length).toBeLessThanOrEqual(10);
    const forms = new Set(
      portal.arrivalsAt("/grp/get_all").map((a) => a.authorization?.split(" ")[0]),
    );
    expect(forms.has("Bearer")).toBe(true);
  });

  it("switches to Bearer when a fresh raw token is refused, logs it once and keeps it", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (a, res) => {
      const [scheme, token] = (a.authorization ?? "").split(" ");
      if (scheme === "Bearer" && portal.valid.has(token ?? ""))
        json(res, 200, { status: true, total: 1, result: [group(1)] });
      else json(res, 200, { status: false, message: "Unauthorized" });
    });
    const logger = collectingLogger();
    const lms = client(portal, { logger, concurrency: 1 });
    for (let i = 0; i < 3; i++) expect((await lms.listGroups()).result).toHaveLength(1);
    const sent = portal.arrivalsAt("/grp/get_all").map((a) => a.authorization);
    expect(sent).toEqual([
      portal.issued[0],
      `Bearer ${portal.issued[0]}`,
      `Bearer ${portal.issued[0]}`,
      `Bearer ${portal.issued[0]}`,
    ]);
    expect(portal.issued).toHaveLength(1);
    const notes = logger.lines.filter((l) => l.message.includes('prefix "Bearer"'));
    expect(notes.map((l) => l.level)).toEqual(["info"]);
  });

  it("--auth-scheme forces the form: no switching", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (a, res) => {
      if (a.authorization?.startsWith("Bearer ")) json(res, 401, { code: 401, message: "no" });
      else if (authorized(portal, a, res)) json(res, 200, { status: true, total: 0, result: [] });
    });
    const error = await failure(client(portal, { authScheme: "Bearer" }).listGroups());
    expect(error).toBeInstanceOf(AuthError);
    const sent = portal.arrivalsAt("/grp/get_all").map((a) => a.authorization ?? "");
    expect(sent.every((header) => header.startsWith("Bearer "))).toBe(true);
    expect((await client(portal, { authScheme: "" }).listGroups()).total).toBe(0);
  });
});

describe("secrets", () => {
  it("the key and tokens appear in no error message or log line", async () => {
    const portal = await startPortal();
    // A careless portal that echoes what it received.
    const echo = (a: Arrival) => `auth=${a.authorization} body=${a.body} token ${a.authorization}`;
    portal.on("/token", (a, res, n) => {
      if (n === 1) return json(res, 500, { code: 500, message: `cannot issue for ${a.body}` });
      const token = `tok-secret-${n}`;
      portal.issued.push(token);
      portal.valid.add(token);
      json(res, 200, { status: true, token });
    });
    portal.on("/grp/get_all", (a, res, n) => {
      if (n === 1) return json(res, 503, { code: 503, message: echo(a) });
      if (n === 2) return json(res, 200, { status: false, code: 500, message: echo(a) });
      if (n === 3) return json(res, 401, { code: 401, message: echo(a) });
      json(res, 400, { code: 400, message: echo(a) });
    });
    const logger = collectingLogger();
    const lms = client(portal, { logger });
    const error = await failure(lms.listGroups());
    expect(error.httpStatus).toBe(400);
    const secrets = [KEY, ...portal.issued];
    expect(portal.issued.length).toBeGreaterThan(0);
    const texts = [
      error.message,
      ...logger.lines.map((l) => `${l.message} ${JSON.stringify(l.fields ?? {})}`),
    ];
    expect(logger.lines.length).toBeGreaterThan(0);
    for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it("the key and tokens echoed in base64 or percent-encoded appear in no error or log line", async () => {
    const portal = await startPortal();
    const b64 = (text: string) => Buffer.from(text).toString("base64");
    const b64url = (text: string) => Buffer.from(text).toString("base64url");
    // A portal that quotes what it received encoded, the way a proxy's log line might.
    const echo = (a: Arrival) =>
      `auth ${b64(`${a.authorization}`)} body ${b64(a.body)} url ${b64url(`x${a.authorization}`)} ` +
      `q ${encodeURIComponent(`${a.authorization}`)}`;
    portal.on("/grp/get_all", (a, res, n) => {
      if (n === 1) return json(res, 503, { code: 503, message: echo(a) });
      if (n === 2) return json(res, 401, { code: 401, message: echo(a) });
      json(res, 400, { code: 400, message: echo(a) });
    });
    const logger = collectingLogger();
    const error = await failure(client(portal, { logger, authScheme: "Bearer" }).listGroups());
    expect(error.httpStatus).toBe(400);
    expect(portal.issued.length).toBe(2);
    const texts = [
      error.message,
      ...logger.lines.map((l) => `${l.message} ${JSON.stringify(l.fields ?? {})}`),
    ];
    expect(texts.join("\n")).toContain("auth ");
    const decoded = texts.flatMap((text) =>
      text
        .split(/[\s"]+/)
        .flatMap((word) => [
          Buffer.from(word, "base64").toString("latin1"),
          Buffer.from(word, "base64url").toString("latin1"),
          safeDecode(word),
        ]),
    );
    for (const secret of [KEY, ...portal.issued]) {
      for (const text of [...texts, ...decoded]) expect(text).not.toContain(secret);
    }
  });
});

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

describe("request bodies", () => {
  it("pages send start, limit and criterias as the spec names them", async () => {
    const portal = await startPortal();
    const records = Array.from({ length: 7 }, (_, i) => group(7 - i));
    portal.on("/grp/get_all", (a, res) => {
      const body = JSON.parse(a.body) as { start: number; limit: number };
      json(res, 200, {
        status: true,
        total: 7,
        result: records.slice(body.start, body.start + body.limit),
      });
    });
    const criteria = [{ column: "grp_name", operator: "like" as const, value: "g%" }];
    const ids: number[] = [];
    for await (const page of client(portal).pages("grp", { criteria, pageSize: 3 })) {
      ids.push(...page.records.map((r) => Number(r.grp_id)));
    }
    expect(ids.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const bodies = portal
      .arrivalsAt("/grp/get_all")
      .map((a) => JSON.parse(a.body) as { start: number });
    // Each page after the first starts on the last record of the one before, and page one is
    // asked again once they are in (src/api/paginate.ts).
    expect(bodies.sort((x, y) => x.start - y.start)).toEqual([
      { start: 0, limit: 3, criterias: criteria },
      { start: 0, limit: 3, criterias: criteria },
      { start: 2, limit: 3, criterias: criteria },
      { start: 4, limit: 3, criterias: criteria },
    ]);
  });
});
