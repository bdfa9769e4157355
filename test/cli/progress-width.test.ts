/** The terminal progress display never wraps: every line is shorter than the terminal. */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { renderTerminalProgress } from "../../src/cli/progress-render.js";
import { Progress } from "../../src/extract/progress.js";

function terminal(columns: number) {
  let text = "";
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    { columns, isTTY: true },
  );
  const lines = () =>
    text
      .replace(/\x1b\[\d*[AK]/g, "")
      .split("\n")
      .filter(Boolean);
  return { stream, lines };
}

describe("progress width", () => {
  it("shows what a resumed run had already loaded instead of 0/0 req 0 rec", () => {
    const progress = new Progress(["grp"], () => 0);
    progress.received("grp", 5_915);
    progress.finish("grp");
    const { stream, lines } = terminal(80);
    renderTerminalProgress(progress, stream, 1_000_000).stop();
    expect(lines()[0]).toMatch(/^grp\s+█{5,}\s+resumed\s+5,915 rec/);
    expect(lines()[0]).not.toContain("0/0");
  });

  it("draws whole lines on a terminal that reports 0 columns, as one whose size was never set", () => {
    const progress = new Progress(["grp"], () => 0);
    progress.plan("grp", 2);
    progress.requested("grp", 1);
    progress.received("grp", 500);
    progress.watchPace(() => ({
      mode: "auto",
      current: 12,
      settled: 12,
      min: 2,
      max: 16,
      latencyMs: 40,
      baselineMs: 20,
      overloads: 0,
    }));
    const { stream, lines } = terminal(0);
    renderTerminalProgress(progress, stream, 1_000_000).stop();
    expect(lines()[0]).toMatch(/^grp\s+[█░]+\s+1\/2 req\s+500 rec/);
    expect(lines()[1]).toBe("concurrency 12 (auto, 2–16 so far), latency 40 ms (no-load 20 ms)");
  });

  for (const columns of [80, 60, 120]) {
    it(`fits ${columns} columns with large figures`, () => {
      let clock = 0;
      const progress = new Progress(["take", "availability_group"], () => clock);
      progress.plan("take", 123_456);
      progress.requested("take", 61_000);
      progress.received("take", 12_345_678);
      clock = 30_000;
      const { stream, lines } = terminal(columns);
      renderTerminalProgress(progress, stream, 1_000_000).stop();
      expect(lines().length).toBe(4);
      for (const line of lines()) expect(line.length).toBeLessThan(columns);
      expect(lines()[0]).toMatch(/^take\s+[█░]+\s+61000\/123456 req\s+12,345,678 rec/);
    });
  }
});
