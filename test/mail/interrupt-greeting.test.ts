/**
 * Ctrl-C or SIGTERM while the mailing waits for a server that accepts the connection and never
 * greets, in a real child process: the message under way was never asked for, so nothing of it
 * can have arrived; the run gives it up at once instead of waiting out the greeting timeout
 * (30 s), says that nothing was sent of it, and names its recipients among those not reached,
 * in the command that sends again.
 */
import { expect, test } from "vitest";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { useMailWorkspace } from "./cli-harness.js";
import { startScriptedSmtp } from "./scripted-smtp.js";

const workspace = useMailWorkspace();

test.each([
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)(
  "%s while the server has not greeted: the message is given up, nothing sent, its recipient not reached",
  async (signal, code) => {
    const smtp = await startScriptedSmtp({
      // No greeting, ever: the client waits for it when the signal comes.
      onConnection: () => child.kill(signal),
    });
    const args = ["report", "team-list", "--catalog", "cat", "--db", "lms.duckdb"];
    const env = {
      LMS_SMTP_URL: smtp.url,
      LMS_MAIL_FROM: "reports@example.com",
      LMS_QUIET: "1",
      LMS_LOG_FORMAT: "human",
    };
    const out = `out-${signal}`;
    const child = spawnCli([...args, "--out", out, "--mail"], { cwd: workspace.dir, env });
    const result = await collect(child);
    await smtp.close();
    expect(result.code, result.stderr).toBe(code);
    expect(smtp.commands).toEqual([]);
    expect(result.stderr).toContain(
      "mail: stopping now; nothing was sent of a message under way that the server had not asked for yet",
    );
    expect(result.stderr).not.toContain("stopping once the server has answered");
    expect(result.stdout).toContain("mail: 0 messages sent\n");
    const line = result.stderr.split("\n").find((l) => l.startsWith("lms-export:"));
    expect(line).toBe(
      `lms-export: mail interrupted; no further mail was sent (0 messages sent before); not reached: north.lead@example.com, sales.lead@example.com, compliance@example.com, audit@example.com; to send them: lms-export report team-list --db lms.duckdb --out ${out} --catalog cat --mail --mail-only north.lead@example.com,sales.lead@example.com,compliance@example.com,audit@example.com`,
    );
  },
  90_000,
);
