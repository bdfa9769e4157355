import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/create-logger.js";
import { createRedactor } from "../../src/log/redact.js";
import { Collect } from "./collect.js";

const KEY = "lk_live_4f9a2c77d1e0b8a3";
const TOKEN = "tok/9Zq+Wp3=yR7";
const NEXT_TOKEN = "tok-second-5be1c0";

function logEverything(format: "human" | "json", secrets: () => string[]): string {
  const out = new Collect();
  const logger = createLogger({ format, stream: out, level: "debug", secrets });
  const cause = new Error(`token ${TOKEN} was refused`);
  const error = new Error(`POST /token with apikey=${KEY} failed`, { cause });
  Object.assign(error, { body: { apikey: KEY, detail: `echo ${TOKEN}` } });
  logger.error(`could not authenticate with ${KEY}`, { err: error });
  logger.info("request", {
    url: `https://lms.example.com/api-v2/grp/list?token=${encodeURIComponent(TOKEN)}`,
    asUrl: new URL(`https://lms.example.com/api-v2/x?t=${encodeURIComponent(TOKEN)}`),
    request: {
      headers: { Authorization: `Bearer ${TOKEN}`, accept: "json" },
      body: { apikey: KEY },
    },
    list: [[{ deep: `x${KEY}y` }]],
    map: new Map([["k", TOKEN]]),
  });
  logger.warn(`${KEY}`, { [`field-${TOKEN}`]: 1 });
  logger.debug("by name", {
    apikey: "not-a-known-secret-1",
    api_key: "not-a-known-secret-2",
    token: "not-a-known-secret-3",
    authorization: "not-a-known-secret-4",
    "X-Api-Key": "not-a-known-secret-5",
    nested: { Token: 42, password: "not-a-known-secret-6" },
    tokensIssued: 7,
  });
  logger.info("credentials in a URL", { proxy: "https://bob:hunter2@proxy.example.com:8080/" });
  logger.info(
    "run started: publish --postgres postgres://bi@db/x?sslmode=require&password=not-a-known-secret-7 --base-url https://lms/api-v2?apikey=not-a-known-secret-8",
  );
  logger.info("advice: give only smtp://[user@]host:port; seen postgres://u:p[w@db2/y");
  logger.info(
    "in other forms: <a href='https://x/?a=1&amp;db_password=not-a-known-secret-9'> https://y/?p%61ssword=not-a-known-secret-10 https://z/?sslpassword=ab'not-a-known-secret-11",
  );
  return out.text();
}

describe("redaction", () => {
  for (const format of ["human", "json"] as const) {
    it(`never lets the key or a token through (${format})`, () => {
      const text = logEverything(format, () => [KEY, TOKEN]);
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(encodeURIComponent(TOKEN));
      expect(text).not.toMatch(/not-a-known-secret-\d/);
      expect(text).not.toContain("hunter2");
      expect(text).toContain("[redacted]");
      // Non-secret neighbours survive, so the line is still useful.
      expect(text).toContain("could not authenticate with [redacted]");
      expect(text).toContain("https://lms.example.com/api-v2/grp/list?token=[redacted]");
      expect(text).toContain("tokensIssued");
      expect(text).toContain("db/x?sslmode=require&password=[redacted]");
      expect(text).toContain("https://lms/api-v2?apikey=[redacted]");
      expect(text).toContain("https://x/?a=1&amp;db_password=[redacted]");
      // The tool's own advice on where credentials go is not a URL holding them.
      expect(text).toContain("give only smtp://[user@]host:port");
      expect(text).toContain("postgres://[redacted]@db2/y");
    });
  }

  it("redacts inside error message, stack, cause and own fields (JSON structure)", () => {
    const lines = logEverything("json", () => [KEY, TOKEN])
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
    const err = lines[0].err;
    expect(err.message).toBe("POST /token with apikey=[redacted] failed");
    expect(err.stack).toContain("apikey=[redacted]");
    expect(err.cause.message).toBe("token [redacted] was refused");
    expect(err.body).toEqual({ apikey: "[redacted]", detail: "echo [redacted]" });
    expect(lines[1].request.headers).toEqual({ Authorization: "[redacted]", accept: "json" });
    expect(lines[3]).toMatchObject({ apikey: "[redacted]", nested: { Token: "[redacted]" } });
    expect(lines[3].tokensIssued).toBe(7);
  });

  it("asks for the secrets on every line, so a new token is redacted at once", () => {
    const out = new Collect();
    let secrets = [KEY, TOKEN];
    const logger = createLogger({ format: "json", stream: out, secrets: () => secrets });
    logger.info(`using ${TOKEN}`);
    secrets = [KEY, TOKEN, NEXT_TOKEN];
    logger.info(`renewed to ${NEXT_TOKEN}`);
    expect(out.text()).not.toContain(TOKEN);
    expect(out.text()).not.toContain(NEXT_TOKEN);
    expect(out.lines()).toHaveLength(2);
  });

  it("replaces the longer secret first when one contains the other", () => {
    const redactor = createRedactor(() => ["abc", "abcdef-token"]);
    expect(redactor.text("x abcdef-token y abc")).toBe("x [redacted] y [redacted]");
  });

  it("ignores empty secrets instead of redacting everything", () => {
    const redactor = createRedactor(() => ["", KEY]);
    expect(redactor.text("plain text")).toBe("plain text");
  });
});
