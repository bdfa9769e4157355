/**
 * `check` probes the portal with the Authorization form it accepted last time (kept by extract,
 * apply or check) and keeps one it learns: against a portal that takes only `Bearer <token>`, the
 * second check sends no request the portal refuses. A simulated portal over real HTTP.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const KEY = "check-form-key-7d21";

describe("check and the remembered Authorization form", () => {
  it("keeps the form a Bearer-only portal accepted and starts with it the next time", async () => {
    const dir = await tempDir("lms-check-form-");
    const sim = await startSimulator({ apiKey: KEY, users: 10, takesPerUser: 1, dialect: "other" });
    const keyFile = join(dir, "key");
    await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
    const args = ["check", "--base-url", sim.baseUrl, "--api-key-file", keyFile];
    args.push("--db", join(dir, "lms.duckdb"));
    const env = { XDG_STATE_HOME: join(dir, "state") };
    const forms = join(dir, "state", "lms-export", "authorization-forms.json");
    try {
      const first = await runInProcess(args, dir, env);
      expect(first.stdout).toContain("✓ list call");
      // Said, as extract says it: a user reading check learns why the second form is used.
      expect(first.stdout).toMatch(
        /✓ authorization: the portal refused the token without a prefix and accepts it with the prefix "Bearer": remembered for the next runs \(--auth-scheme/,
      );
      expect(sim.stats.tokenRefusals).toBeGreaterThan(0);
      expect(JSON.parse(await readFile(forms, "utf8"))).toEqual({ [sim.baseUrl]: "Bearer" });

      const refusals = sim.stats.tokenRefusals;
      const second = await runInProcess(args, dir, env);
      expect(second.stdout).toContain("✓ list call");
      expect(second.stdout).not.toContain("authorization");
      expect(sim.stats.tokenRefusals).toBe(refusals);

      // A scheme given on the command line is sent as it is, whatever is remembered.
      const forced = await runInProcess([...args, "--auth-scheme", "Token"], dir, env);
      expect(forced.stdout).toContain("✗ list call");
      expect(sim.stats.tokenRefusals).toBeGreaterThan(refusals);
      expect(JSON.parse(await readFile(forms, "utf8"))).toEqual({ [sim.baseUrl]: "Bearer" });
    } finally {
      await sim.close();
    }
  });
});
