/**
 * `apply` at a terminal (a pseudo-terminal made by util-linux `script`): the diff, then a (y/N)
 * question; only "y" sends (n, Ctrl-C and Ctrl-D are a no). And Ctrl-C part-way: what was
 * confirmed is kept, the rest is skipped and sent by the next run.
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(61);
});
afterAll(async () => {
  await fx.close();
});

const helper = (name: string) => fileURLToPath(new URL(`../helpers/${name}`, import.meta.url));
const shellQuote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** Runs apply inside a pseudo-terminal, typing `answer` at the question, after `asked`. */
async function atTerminal(args: string[], answer: string, asked?: () => void) {
  const command = [
    process.execPath,
    "--import",
    helper("register-ts.mjs"),
    helper("cli-child.ts"),
    ...args,
    ...fx.flags,
  ]
    .map(shellQuote)
    .join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, LMS_LOG_FORMAT: "json" },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes("(y/N)") && !child.stdin?.writableEnded) {
      asked?.();
      child.stdin?.end(`${answer}\n`);
    }
  });
  const done = await collect(child);
  return { code: done.code, output };
}

/** `args` run as a child process at --concurrency 2, once the portal has had `writes` writes. */
async function sendingChild(args: string[], writes: number) {
  const start = fx.writes();
  const child = spawnCli([...args, ...fx.flags, "--concurrency", "2"]);
  const done = collect(child);
  while (fx.writes() - start < writes && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, done };
}

describe("apply at a terminal", () => {
  it("asks before sending: N, Ctrl-C or Ctrl-D sends nothing, y applies", async () => {
    const groups = fx.sim.data.list("grp").slice(0, 3);
    const path = await csvFile(fx.dir, "terminal.csv", [
      "grp_id,grp_description",
      ...groups.map((g) => `${g.grp_id},asked first ${g.grp_id}`),
    ]);
    const args = ["apply", path, "--op", "grp.edit"];
    const before = fx.writes();
    const no = await atTerminal(args, "n");
    expect(no.output).toContain(`grp ${groups[0]?.grp_id}  grp_description:`);
    expect(no.output).toContain("Apply 3 changes to the portal? (y/N)");
    expect(no.code).toBe(1);
    expect(fx.writes()).toBe(before);
    const one = await csvFile(fx.dir, "terminal-one.csv", [
      "grp_id,grp_description",
      `${groups[0]?.grp_id},asked first alone`,
    ]);
    const single = await atTerminal(["apply", one, "--op", "grp.edit"], "n");
    expect(single.output).toContain("Apply 1 change to the portal? (y/N)");
    expect(fx.writes()).toBe(before);

    const interrupted = await atTerminal(args, "\x03");
    expect(interrupted.code).toBe(1);
    expect(interrupted.output).toContain("not applied: nothing was sent");
    expect(fx.writes()).toBe(before);

    // Ctrl-D, the end of the input, is a "no" as well, not an unexpected error.
    const ended = await atTerminal(args, "\x04");
    expect(ended.code).toBe(1);
    expect(ended.output).toContain("not applied: nothing was sent");
    expect(ended.output).not.toContain("unexpected error");
    expect(fx.writes()).toBe(before);

    const yes = await atTerminal(args, "y");
    expect(yes.code, yes.output).toBe(0);
    expect(fx.writes() - before).toBe(3);
    for (const g of groups) {
      expect(fx.sim.data.get("grp", g.grp_id)?.grp_description).toBe(`asked first ${g.grp_id}`);
    }
  });

  it("refuses a file changed since it was read, once it is told y: nothing is sent", async () => {
    const [first, second] = fx.sim.data.list("product_access").slice(-2);
    if (!first || !second) throw new Error("too few product accesses");
    const flipped = (r: typeof first) => (r.product_access_certificate === "1" ? "0" : "1");
    const path = await csvFile(fx.dir, "growing.csv", [
      "product_access_id,product_access_certificate",
      `${first.product_access_id},${flipped(first)}`,
    ]);
    const before = fx.writes();
    // Its writer adds the next line while the diff of the first is on the screen.
    const grow = () => appendFileSync(path, `${second.product_access_id},${flipped(second)}\n`);
    const args = ["apply", path, "--op", "product_access.edit"];
    const run = await atTerminal(args, "y", grow);
    expect(run.output).toContain("Apply 1 change to the portal? (y/N)");
    expect(run.code, run.output).toBe(2);
    expect(run.output).toContain(
      '"msg":"growing.csv changed while it was read; run again when it is complete"',
    );
    expect(fx.writes()).toBe(before);

    const again = await atTerminal(args, "y");
    expect(again.output).toContain("Apply 2 changes to the portal? (y/N)");
    expect(again.code, again.output).toBe(0);
    expect(fx.writes() - before).toBe(2);
  });

  it("warns of text sent with spaces at either end before the question", async () => {
    const group = fx.sim.data.list("grp")[3];
    if (!group) throw new Error("too few groups");
    const path = await csvFile(fx.dir, "spaced.csv", ["grp_id,grp_name", `${group.grp_id},Sales `]);
    const no = await atTerminal(["apply", path, "--op", "grp.edit"], "n");
    expect(no.code).toBe(1);
    const note = no.output.indexOf(
      "1 cell in grp_name begins or ends with spaces (line 2); it is sent as typed",
    );
    expect(note, no.output).toBeGreaterThanOrEqual(0);
    expect(note).toBeLessThan(no.output.indexOf("(y/N)"));
  });

  it("Ctrl-C part-way: confirmed rows kept, the rest skipped, the next run sends the rest", async () => {
    fx.sim.faults.latencyMs = 50;
    const access = fx.sim.data.list("product_access").slice(0, 40);
    const path = await csvFile(fx.dir, "interrupted.csv", [
      "product_access_id,product_access_certificate",
      ...access.map(
        (r) => `${r.product_access_id},${r.product_access_certificate === "1" ? 0 : 1}`,
      ),
    ]);
    const args = ["apply", path, "--op", "product_access.edit", "--yes"];
    const { child, done } = await sendingChild(args, 10);
    child.kill("SIGINT");
    const stopped = await done;
    // Stopped by Ctrl-C: 130, as a shell reports it.
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain("apply interrupted: run the same command again");
    const outcomes = await query(
      fx.db,
      `SELECT outcome, count(*)::INT AS n FROM read_csv('${path}.results.csv', header = true, all_varchar = true) GROUP BY ALL ORDER BY ALL`,
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(["applied", "skipped"]);
    // Only the rows under way (two at --concurrency 2) may have reached the portal.
    const reasons = await query(
      fx.db,
      `SELECT error, count(*)::INT AS n FROM read_csv('${path}.results.csv', header = true, all_varchar = true) WHERE outcome = 'skipped' GROUP BY ALL ORDER BY ALL`,
    );
    const count = (error: string) => reasons.find((r) => r.error === error)?.n ?? 0;
    expect(count("interrupted before the portal confirmed it")).toBeLessThanOrEqual(2);
    expect(count("not sent: interrupted")).toBeGreaterThan(0);
    expect(reasons.every((r) => r.error !== null)).toBe(true);
    fx.sim.faults.latencyMs = 0;
    const rest = await fx.run(args);
    expect(rest.code, rest.stderr).toBe(0);
    for (const r of access) {
      expect(
        fx.sim.data.get("product_access", r.product_access_id)?.product_access_certificate,
      ).toBe(r.product_access_certificate === "1" ? "0" : "1");
    }
  });

  it("a second Ctrl-C ends it at once, saying how far it got; the next run applies the rest", async () => {
    fx.sim.faults.latencyMs = 1_500;
    const access = fx.sim.data.list("product_access").slice(50, 62);
    const flipped = (r: (typeof access)[number]) => (r.product_access_certificate === "1" ? 0 : 1);
    const path = await csvFile(fx.dir, "twice.csv", [
      "product_access_id,product_access_certificate",
      ...access.map((r) => `${r.product_access_id},${flipped(r)}`),
    ]);
    const args = ["apply", path, "--op", "product_access.edit", "--yes"];
    const { child, done } = await sendingChild(args, 4);
    // Ctrl-C again and again until it ends: two signals sent too close together reach the
    // process as one, and the clean stop the first begins takes longer than the gap.
    while (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const ended = await done;
    fx.sim.faults.latencyMs = 0;
    // Ended by the signal itself, as Node's default would (a shell running a script stops too).
    expect(ended.signal, ended.stderr).toBe("SIGINT");
    expect(ended.stderr).toMatch(
      /lms-export: apply ended at once by a second Ctrl-C, \d+ of 12 rows sent, no results file written; the outcomes recorded so far are kept \(.*apply-journal\), and a row being sent then may be applied\. Run the same command again/,
    );
    const rest = await fx.run(args);
    expect(rest.code, rest.stderr).toBe(0);
    for (const r of access) {
      const now = fx.sim.data.get("product_access", r.product_access_id);
      expect(now?.product_access_certificate).toBe(String(flipped(r)));
    }
  });
});
