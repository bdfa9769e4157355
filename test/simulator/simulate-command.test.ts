import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import yargs from "yargs";
import { registerSimulate } from "../../src/cli/commands/simulate.js";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { call, tokenFor } from "./http.js";

/** A stream that keeps what was written. */
class Collect extends Writable {
  text = "";
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function testContext(signal: AbortSignal = new AbortController().signal) {
  const stdout = new Collect();
  const stderr = new Collect();
  const ctx: CliContext = { stdout, stderr, env: {}, cwd: process.cwd(), signal };
  return { ctx, stdout, stderr };
}

async function firstLine(stream: Collect): Promise<string> {
  for (let i = 0; i < 600 && !stream.text.includes("\n"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return stream.text.split("\n")[0] ?? "";
}

describe("lms-export simulate", () => {
  it("--dialect other answers the open points the other way", async () => {
    const controller = new AbortController();
    const { ctx, stdout } = testContext(controller.signal);
    const exit = main(["simulate", "--users", "10", "--dialect", "other"], ctx);
    const baseUrl = await firstLine(stdout);
    const issued = await call(baseUrl, "POST", "/token", { body: { apikey: "demo-key" } });
    const token = (issued.body as { result: { token: string } }).result.token;
    const raw = await call(baseUrl, "POST", "/grp/get_all", { body: {}, authorization: token });
    expect(raw.status).toBe(200);
    expect((raw.body as { status: boolean }).status).toBe(false);
    const bearer = `Bearer ${token}`;
    const ok = await call(baseUrl, "POST", "/grp/get_all", { body: {}, authorization: bearer });
    expect(typeof (ok.body as { total: unknown }).total).toBe("string");
    expect(stdout.text).toContain("other dialect");
    controller.abort();
    expect(await exit).toBe(0);
  });

  it("prints the base URL first, serves, and stops when the signal aborts", async () => {
    const controller = new AbortController();
    const { ctx, stdout } = testContext(controller.signal);
    const exit = main(
      ["simulate", "--users", "30", "--takes-per-user", "2", "--seed", "4", "--api-key", "k-123"],
      ctx,
    );
    const baseUrl = await firstLine(stdout);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api-v2$/);
    const token = await tokenFor(baseUrl, "k-123");
    const answer = await call(baseUrl, "POST", "/grp/get_all", { body: {}, authorization: token });
    expect(answer.status).toBe(200);
    expect(stdout.text.split("\n")[1]).toMatch(/^serving 30 users, \d+ takes/);
    expect(stdout.text).not.toContain("k-123");
    controller.abort();
    expect(await exit).toBe(0);
    await expect(call(baseUrl, "POST", "/token", { body: { apikey: "k-123" } })).rejects.toThrow();
  });

  it("applies fault flags", async () => {
    const controller = new AbortController();
    const { ctx, stdout } = testContext(controller.signal);
    const exit = main(["simulate", "--users", "5", "--error-rate", "1"], ctx);
    const baseUrl = await firstLine(stdout);
    const answer = await call(baseUrl, "POST", "/token", { body: { apikey: "demo-key" } });
    expect([500, 503]).toContain(answer.status);
    expect(stdout.text).toContain("errorRate=1");
    controller.abort();
    expect(await exit).toBe(0);
  });

  it("answers an unknown id and a page too large as the open-point flags say", async () => {
    const controller = new AbortController();
    const { ctx, stdout } = testContext(controller.signal);
    const flags = ["--missing-id-answer", "empty-array", "--refuse-limit-above", "100"];
    const exit = main(["simulate", "--users", "5", ...flags], ctx);
    const baseUrl = await firstLine(stdout);
    const authorization = await tokenFor(baseUrl, "demo-key");
    const missing = await call(baseUrl, "GET", "/product/get/999999", { authorization });
    expect([missing.status, missing.body]).toEqual([200, { status: true, result: [] }]);
    const large = await call(baseUrl, "POST", "/grp/get_all", {
      body: { start: 0, limit: 500 },
      authorization,
    });
    expect(large.status).toBe(400);
    const small = await call(baseUrl, "POST", "/grp/get_all", {
      body: { start: 0, limit: 100 },
      authorization,
    });
    expect(small.status).toBe(200);
    controller.abort();
    expect(await exit).toBe(0);
  });

  it.each([
    [["--missing-id-answer", "maybe"], /--missing-id-answer/],
    [["--users=-5"], /--users must be an integer >= 0, got -5/],
    [["--users", "-5"], /--users must be an integer >= 0, got -5/],
    [["--users", "many"], /--users must be a number, got "many"; see lms-export simulate --help/],
    [["--error-rate", "1.5"], /--error-rate must be a number between 0 and 1, got 1.5/],
    [["--reset-rate=-0.1"], /--reset-rate must be a number between 0 and 1/],
    [["--port", "70000"], /--port must be an integer between 0 and 65535, got 70000/],
    [["--latency", "slow"], /--latency must be a number, got "slow"/],
    [["--max-limit", "0"], /--max-limit must be an integer >= 1/],
    [["--now", "someday"], /--now must be an ISO 8601 date/],
  ])("refuses %j with exit 2 and one line", async (args, message) => {
    const { ctx, stdout, stderr } = testContext();
    expect(await main(["simulate", ...args], ctx)).toBe(2);
    expect(stderr.text).toMatch(message);
    expect(stderr.text.trim().split("\n")).toHaveLength(1);
    expect(stdout.text).toBe("");
  });

  it("fails with exit 1 and a hint when the port is taken", async () => {
    const controller = new AbortController();
    const first = testContext(controller.signal);
    const exit = main(["simulate", "--users", "5"], first.ctx);
    const port = new URL(await firstLine(first.stdout)).port;
    const second = testContext();
    expect(await main(["simulate", "--users", "5", "--port", port], second.ctx)).toBe(1);
    expect(second.stderr.text).toMatch(/port is in use; pass --port 0/);
    controller.abort();
    expect(await exit).toBe(0);
  });

  it("shows examples in --help", async () => {
    const { ctx } = testContext();
    let help = "";
    const parser = registerSimulate(yargs([]).scriptName("lms-export").exitProcess(false), ctx);
    await parser.parseAsync(["simulate", "--help"], {}, (_error, _argv, output) => {
      help = output;
    });
    expect(help).toContain("Examples:");
    expect(help).toMatch(/lms-export simulate --latency 40/);
    expect(help).toContain("--insert-while-paging");
  });
});
