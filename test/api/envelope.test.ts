import { describe, expect, it } from "vitest";
import { readEnvelope, statusStoodFor } from "../../src/api/envelope.js";
import {
  AuthError,
  EnvelopeError,
  HttpError,
  isTokenRejection,
  NotFoundError,
  type RequestContext,
} from "../../src/api/errors.js";
import type { HttpAnswer } from "../../src/api/http.js";
import { Redactor } from "../../src/api/redact.js";

const KEY = "sk-live-0123456789";
const TOKEN = "tok-abcdef-9876543210";
const redactor = new Redactor();
redactor.add(KEY);
redactor.add(TOKEN);

const listCtx: RequestContext = {
  operation: "listGroups",
  method: "POST",
  path: "/api-v2/grp/get_all",
};
const getCtx: RequestContext = {
  operation: "getProduct",
  method: "GET",
  path: "/api-v2/product/get/7",
};
const tokenCtx: RequestContext = {
  operation: "authenticate",
  method: "POST",
  path: "/api-v2/token",
};

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return { status, headers: { "content-type": "application/json", ...headers }, text };
}

function caught(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error("expected a throw");
}

describe("readEnvelope: success", () => {
  it("reads lists, single records and tokens", () => {
    expect(
      readEnvelope(
        answer(200, { status: true, total: 2, result: [{ a: 1 }] }),
        listCtx,
        "list",
        redactor,
      ),
    ).toEqual({
      total: 2,
      records: [{ a: 1 }],
    });
    expect(
      readEnvelope(
        answer(200, { status: true, result: { product_id: 7 } }),
        getCtx,
        "single",
        redactor,
      ),
    ).toEqual({
      product_id: 7,
    });
    for (const body of [
      { status: true, token: "t1" },
      { status: true, result: { token: "t1" } },
      { status: true, result: "t1" },
    ]) {
      expect(readEnvelope(answer(200, body), tokenCtx, "token", redactor)).toBe("t1");
    }
  });
});

describe("readEnvelope: not found in its three forms", () => {
  it.each([
    ["HTTP 404", answer(404, { code: 404, message: "product not found" })],
    ["HTTP 404 without JSON", answer(404, "<html><title>Not Found</title></html>")],
    ["status:false code 404", answer(200, { status: false, code: 404, message: "not found" })],
    ["status:true result null", answer(200, { status: true, result: null })],
  ])("%s", (_, input) => {
    const error = caught(() => readEnvelope(input, getCtx, "single", redactor));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain("getProduct (GET /api-v2/product/get/7");
  });
});

describe("readEnvelope: failures become typed errors naming operation, path and status", () => {
  it("non-2xx with {code, message} is an HttpError carrying Retry-After", () => {
    const error = caught(() =>
      readEnvelope(
        answer(503, { code: 503, message: "busy" }, { "retry-after": "2" }),
        listCtx,
        "list",
        redactor,
      ),
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toBe("listGroups (POST /api-v2/grp/get_all, HTTP 503): code 503: busy");
    expect((error as HttpError).retryAfter).toBe("2");
    expect((error as HttpError).serverCode).toBe(503);
  });

  it("a proxy's HTML error page is an HttpError quoting only its title", () => {
    const html =
      "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
    const error = caught(() =>
      readEnvelope(
        { status: 502, headers: { "content-type": "text/html" }, text: html },
        listCtx,
        "list",
        redactor,
      ),
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toContain("HTTP 502");
    expect(error.message).toContain('title "502 Bad Gateway"');
  });

  it("a 200 HTML page is an EnvelopeError not_json, truncated JSON broken_json", () => {
    for (const [text, problem] of [
      ["<html><body>login</body></html>", "not_json"],
      ['{"status":true,"total":3,"result":[{"grp_id":1},', "broken_json"],
    ] as const) {
      const error = caught(() =>
        readEnvelope({ status: 200, headers: {}, text }, listCtx, "list", redactor),
      );
      expect(error).toBeInstanceOf(EnvelopeError);
      expect((error as EnvelopeError).problem).toBe(problem);
      expect(error.message).toContain("listGroups (POST /api-v2/grp/get_all, HTTP 200)");
    }
  });

  it.each([
    ["status missing", { total: 1, result: [] }, "status"],
    ["status not boolean", { status: "true", total: 1, result: [] }, "status"],
    ["result not an array", { status: true, total: 1, result: "none" }, "result"],
    ["result missing", { status: true, total: 1 }, "result"],
    ["total missing", { status: true, result: [] }, "total"],
    ["total not an integer", { status: true, total: 1.5, result: [] }, "total"],
    ["total negative", { status: true, total: -1, result: [] }, "total"],
    ["not an object", [1, 2], "not an object"],
  ])("list with %s is a bad_shape EnvelopeError", (_, body, word) => {
    const error = caught(() => readEnvelope(answer(200, body), listCtx, "list", redactor));
    expect(error).toBeInstanceOf(EnvelopeError);
    expect((error as EnvelopeError).problem).toBe("bad_shape");
    expect(error.message).toContain(word);
  });

  it("a list's result {} is an empty list, as PHP's JSON_FORCE_OBJECT writes []", () => {
    for (const total of [0, 3]) {
      const body = { status: true, total, result: {} };
      expect(readEnvelope(answer(200, body), listCtx, "list", redactor)).toEqual({
        total,
        records: [],
      });
    }
  });

  it("single record without result, or with a non-object result, is bad_shape", () => {
    for (const body of [
      { status: true },
      { status: true, result: [1] },
      { status: true, result: 3 },
    ]) {
      const error = caught(() => readEnvelope(answer(200, body), getCtx, "single", redactor));
      expect((error as EnvelopeError).problem).toBe("bad_shape");
    }
  });

  it("status:false is an EnvelopeError with the server's code", () => {
    const error = caught(() =>
      readEnvelope(
        answer(200, { status: false, code: 500, message: "db down" }),
        listCtx,
        "list",
        redactor,
      ),
    );
    expect(error).toBeInstanceOf(EnvelopeError);
    expect((error as EnvelopeError).problem).toBe("status_false");
    expect((error as EnvelopeError).serverCode).toBe(500);
    expect(error.message).toContain("code 500: db down");
    expect(isTokenRejection(error)).toBe(false);
  });

  it("recognises an expired token in 401s and in status:false envelopes", () => {
    const forms = [
      answer(401, { code: 401, message: "unauthorized" }),
      answer(200, { status: false, code: 401, message: "nope" }),
      answer(200, { status: false, code: 500, message: "Token expired" }),
    ];
    for (const input of forms) {
      expect(isTokenRejection(caught(() => readEnvelope(input, listCtx, "list", redactor)))).toBe(
        true,
      );
    }
  });

  it("a refused key on /token is an AuthError saying to check the key, naming no CLI setting", () => {
    for (const input of [
      answer(401, { code: 401, message: "invalid api key" }),
      answer(403, "forbidden"),
      answer(200, { status: false, code: 401, message: "invalid api key" }),
    ]) {
      const error = caught(() => readEnvelope(input, tokenCtx, "token", redactor));
      expect(error).toBeInstanceOf(AuthError);
      expect(error.message).toContain("the portal refused the API key");
      expect(error.message).toMatch(/: check the API key$/);
      expect(error.message).not.toContain("--api-key-file");
      expect(error.message).toContain("authenticate (POST /api-v2/token");
    }
    const missing = caught(() => readEnvelope(answer(404, "no"), tokenCtx, "token", redactor));
    expect(missing).toBeInstanceOf(HttpError);
    expect(missing.message).toContain("check the base URL");
    const noToken = caught(() =>
      readEnvelope(answer(200, { status: true }), tokenCtx, "token", redactor),
    );
    expect((noToken as EnvelopeError).problem).toBe("bad_shape");
  });
});

describe("the status an answer stands for (what paces the client)", () => {
  it("is the HTTP status, or for a 200 {status:false} the one its code or wording implies", () => {
    const cases: [HttpAnswer, number][] = [
      [answer(429, { code: 429, message: "too many requests" }), 429],
      [answer(503, "<html>busy</html>"), 503],
      [answer(200, { status: true, total: 0, result: [] }), 200],
      [
        answer(200, { status: false, code: 429, message: "too many requests", retry_after: 1 }),
        429,
      ],
      [answer(200, { status: false, message: "Rate limit exceeded" }), 429],
      [answer(200, { status: false, message: "Too Many Requests" }), 429],
      [answer(200, { code: "503", message: "server overloaded", status: false }), 503],
      [answer(200, { status: false, message: "Service temporarily unavailable" }), 503],
      [answer(200, { status: false, message: "too busy, come back later" }), 503],
      [answer(200, { status: false, code: 500, message: "db down" }), 500],
      [answer(200, { status: false, message: "token expired" }), 401],
      // Says nothing the client can act on: stays what it was sent as.
      [answer(200, { status: false, message: "Erreur" }), 200],
      [answer(200, '{"status":false,'), 200],
    ];
    for (const [input, status] of cases) expect(statusStoodFor(input), input.text).toBe(status);
  });

  it("does not read a success, even one whose records say status:false", () => {
    const records = Array.from({ length: 300 }, (_, i) => ({ id: i, status: false }));
    const big = answer(200, { status: true, total: 300, result: records });
    expect(big.text.length).toBeGreaterThan(4096);
    expect(statusStoodFor(big)).toBe(200);
    const small = answer(200, { status: true, total: 1, result: [{ id: 1, status: false }] });
    expect(statusStoodFor(small)).toBe(200);
  });
});

describe("the wait a status:false envelope asks for", () => {
  const busy = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    caught(() =>
      readEnvelope(answer(200, { status: false, ...body }, headers), listCtx, "list", redactor),
    ) as EnvelopeError;

  it("is read from the envelope first, then from a Retry-After header", () => {
    expect(busy({ code: 429, retry_after: 2 }, { "retry-after": "7" }).retryAfter).toBe("2");
    expect(busy({ code: 429, retryAfter: "3" }).retryAfter).toBe("3");
    expect(busy({ code: 429 }, { "retry-after": "7" }).retryAfter).toBe("7");
    expect(busy({ code: 429 }).retryAfter).toBeUndefined();
    expect(busy({ code: 429, retry_after: -1 }).retryAfter).toBeUndefined();
    expect(busy({ message: "too many requests" }).impliedStatus).toBe(429);
  });
});

describe("secrets never reach a message", () => {
  it("scrubs the key and tokens a server echoes, however it spells them", () => {
    const echoes = [
      `bad key ${KEY}`,
      `token ${TOKEN} expired`,
      `{"apikey":"${KEY}"}`,
      `Authorization: Bearer ${TOKEN}`,
      'request had token="some-other-token-xyz"',
      `api_key=${KEY}&x=1`,
    ];
    for (const message of echoes) {
      for (const input of [
        answer(500, { code: 500, message }),
        answer(200, { status: false, code: 500, message }),
        answer(401, { code: 401, message }),
      ]) {
        for (const [ctx, expect_] of [
          [listCtx, "list"],
          [tokenCtx, "token"],
        ] as const) {
          const error = caught(() => readEnvelope(input, ctx, expect_, redactor));
          expect(error.message).not.toContain(KEY);
          expect(error.message).not.toContain(TOKEN);
          expect(error.message).not.toContain("some-other-token-xyz");
        }
      }
    }
  });

  it("never quotes a truncated body, which could hold part of a token", () => {
    const text = '{"status":true,"token":"tok-abc';
    const error = caught(() =>
      readEnvelope({ status: 200, headers: {}, text }, tokenCtx, "token", redactor),
    );
    expect(error.message).not.toContain("tok-abc");
  });

  it("keeps server text to one bounded line", () => {
    const message = `line one\nline two ${"x".repeat(1000)}`;
    const error = caught(() =>
      readEnvelope(answer(500, { code: 500, message }), listCtx, "list", redactor),
    );
    expect(error.message).not.toContain("\n");
    expect(error.message.length).toBeLessThan(400);
  });
});
