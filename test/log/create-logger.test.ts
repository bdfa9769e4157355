import type { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createCliLogger } from "../../src/log/cli-logger.js";
import { createLogger } from "../../src/log/create-logger.js";
import { lostLogLines } from "../../src/log/log-line-output.js";
import { Collect } from "./collect.js";

const fixedNow = () => new Date(2026, 2, 5, 10, 22, 13);

describe("createLogger, human format", () => {
  it("writes level, message and key=value fields on one line", () => {
    const out = new Collect();
    const logger = createLogger({ format: "human", stream: out, now: fixedNow });
    logger.info("extract finished", {
      records: 1200,
      resource: "take",
      note: "two words",
      ok: true,
    });
    expect(out.lines()).toEqual([
      '10:22:13 INFO  extract finished records=1200 resource=take note="two words" ok=true',
    ]);
  });

  it("prints nested objects as JSON and errors as Type: message", () => {
    const out = new Collect();
    const logger = createLogger({ format: "human", stream: out, now: fixedNow });
    logger.error("run failed", { err: new TypeError("bad page"), counts: { a: 1 } });
    expect(out.lines()).toEqual([
      '10:22:13 ERROR run failed err="TypeError: bad page" counts={"a":1}',
    ]);
  });

  it("names the portal a line concerns before the message, when given one", () => {
    const out = new Collect();
    createLogger({ format: "human", stream: out, now: fixedNow, portal: "north" }).info("done", {
      rows: 3,
    });
    expect(out.lines()).toEqual(["10:22:13 INFO  [north] done rows=3"]);
  });

  it("stamps the day too when dated, and createCliLogger dates lines written to a file only", () => {
    const out = new Collect();
    createLogger({ format: "human", stream: out, now: fixedNow, dated: true }).info("done");
    expect(out.lines()).toEqual(["2026-03-05 10:22:13 INFO  done"]);
    const file = new Collect(false);
    createCliLogger({ format: "human", quiet: false, stream: file, env: {} }).warn("w");
    expect(file.text()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d WARN {2}w\n$/);
    const tty = new Collect(true);
    createCliLogger({ format: "human", quiet: false, stream: tty, env: { NO_COLOR: "1" } }).warn(
      "w",
    );
    expect(tty.text()).toMatch(/^\d\d:\d\d:\d\d WARN {2}w\n$/);
  });

  it("keeps a message with a newline on one line", () => {
    const out = new Collect();
    createLogger({ format: "human", stream: out, now: fixedNow }).warn("first\nsecond");
    expect(out.lines()).toEqual(["10:22:13 WARN  first\\nsecond"]);
  });

  it("colours only when asked, and createCliLogger asks only for a terminal without NO_COLOR", () => {
    const plain = new Collect(false);
    createCliLogger({ format: "human", quiet: false, stream: plain, env: {} }).warn("w");
    expect(plain.text()).not.toContain("\u001b[");

    const tty = new Collect(true);
    createCliLogger({ format: "human", quiet: false, stream: tty, env: {} }).warn("w");
    expect(tty.text()).toContain("\u001b[33m");

    const noColor = new Collect(true);
    createCliLogger({
      format: "human",
      quiet: false,
      stream: noColor,
      env: { NO_COLOR: "1" },
    }).warn("w");
    expect(noColor.text()).not.toContain("\u001b[");
    expect(noColor.text()).toMatch(/WARN {2}w\n$/);

    // no-color.org: an empty NO_COLOR does not disable colour.
    const emptyNoColor = new Collect(true);
    createCliLogger({
      format: "human",
      quiet: false,
      stream: emptyNoColor,
      env: { NO_COLOR: "" },
    }).warn("w");
    expect(emptyNoColor.text()).toContain("\u001b[");
  });
});

describe("createLogger, JSON format", () => {
  it("writes one JSON object per line with level label, ISO time, msg and fields", () => {
    const out = new Collect();
    const logger = createLogger({ format: "json", stream: out });
    logger.info("page fetched", { resource: "grp", start: 500, nested: { a: [1, 2] } });
    logger.warn("slow", { ms: 1500 });
    const lines = out.lines().map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: "info",
      msg: "page fetched",
      resource: "grp",
      start: 500,
      nested: { a: [1, 2] },
    });
    expect(Number.isNaN(Date.parse(lines[0].time))).toBe(false);
    expect(lines[1]).toMatchObject({ level: "warn", msg: "slow", ms: 1500 });
    expect(lines[0]).not.toHaveProperty("hostname");
  });

  it("adds a portal field when given a portal, and none otherwise", () => {
    const out = new Collect();
    createLogger({ format: "json", stream: out, portal: "south" }).warn("slow", { ms: 1500 });
    createLogger({ format: "json", stream: out }).warn("slow", { ms: 1500 });
    const [tagged, plain] = out.lines().map((line) => JSON.parse(line));
    expect(tagged).toMatchObject({ level: "warn", msg: "slow", portal: "south", ms: 1500 });
    expect(plain).not.toHaveProperty("portal");
  });

  it("writes synchronously: the line is in the stream when the call returns", () => {
    const out = new Collect();
    createLogger({ format: "json", stream: out }).error("boom");
    expect(out.lines()).toHaveLength(1);
  });

  it("serialises errors with type, message, stack, cause and their own fields", () => {
    const out = new Collect();
    const error = Object.assign(new RangeError("outer"), { code: "E_PAGE", httpStatus: 503 });
    Object.defineProperty(error, "cause", { value: new Error("inner"), enumerable: false });
    createLogger({ format: "json", stream: out }).error("failed", { err: error });
    const line = JSON.parse(out.lines()[0] ?? "{}");
    expect(line.err).toMatchObject({
      type: "RangeError",
      message: "outer",
      code: "E_PAGE",
      httpStatus: 503,
      cause: { type: "Error", message: "inner" },
    });
    expect(line.err.stack).toContain("RangeError: outer");
  });

  it("renames fields that would collide with pino's own keys", () => {
    const out = new Collect();
    createLogger({ format: "json", stream: out }).info("m", { level: "x", msg: "y", time: 1 });
    const line = JSON.parse(out.lines()[0] ?? "{}");
    expect(line).toMatchObject({ level: "info", msg: "m", level_: "x", msg_: "y", time_: 1 });
  });

  it("turns bigints, dates, URLs, cycles into JSON-safe values", () => {
    const out = new Collect();
    const cyclic: Record<string, unknown> = { name: "c" };
    cyclic.self = cyclic;
    createLogger({ format: "json", stream: out }).info("values", {
      rows: 12n,
      huge: 2n ** 70n,
      at: new Date("2026-03-05T10:22:13Z"),
      url: new URL("https://lms.example.com/api-v2/grp/list"),
      cyclic,
    });
    const line = JSON.parse(out.lines()[0] ?? "{}");
    expect(line).toMatchObject({
      rows: 12,
      huge: "1180591620717411303424",
      at: "2026-03-05T10:22:13.000Z",
      url: "https://lms.example.com/api-v2/grp/list",
      cyclic: { name: "c", self: "[circular]" },
    });
  });
});

describe("levels", () => {
  it("drops debug by default and keeps only warnings and errors when quiet", () => {
    for (const format of ["human", "json"] as const) {
      const normal = new Collect();
      const logger = createCliLogger({ format, quiet: false, stream: normal, env: {} });
      logger.debug("d");
      logger.info("i");
      logger.warn("w");
      logger.error("e");
      expect(normal.lines()).toHaveLength(3);

      const quiet = new Collect();
      const q = createCliLogger({ format, quiet: true, stream: quiet, env: {} });
      q.debug("d");
      q.info("i");
      q.warn("w");
      q.error("e");
      expect(quiet.lines()).toHaveLength(2);
      expect(quiet.text()).not.toMatch(/\bi\b.*\n.*\bi\b/);
      expect(quiet.text()).toContain("w");
      expect(quiet.text()).toContain("e");
    }
  });

  it("refuses an unknown level", () => {
    expect(() => createLogger({ format: "json", stream: new Collect(), level: "loud" })).toThrow(
      /unknown log level/,
    );
  });
});

describe("createLogger, a stream that cannot be written", () => {
  /**
   * A stream whose every write throws as a write to a full disk does (the process's stderr is
   * written with fs.writeSync, which throws); a Writable would keep the lines after its first
   * failure instead of trying each.
   */
  const fullStream = () =>
    ({
      write() {
        throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      },
    }) as unknown as Writable;

  it.each(["human", "json"] as const)(
    "drops and counts the line instead of throwing at the caller (%s)",
    (format) => {
      const before = lostLogLines().count;
      const logger = createLogger({ format, stream: fullStream() });
      expect(() => logger.info("extracted take", { records: 3 })).not.toThrow();
      expect(() => logger.error("a failure")).not.toThrow();
      expect(lostLogLines()).toEqual({ count: before + 2, reason: "ENOSPC" });
    },
  );
});
