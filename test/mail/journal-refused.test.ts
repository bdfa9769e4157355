/**
 * A recipient the server refused within a delivered message, and a run killed with SIGKILL
 * after that message (between two messages: nothing of the next one reached the server), against
 * real smtp-servers on 127.0.0.1. `report team-list team-chart --mail` sends six messages; the
 * third, team-list's copy of the rows without a manager, goes to compliance@ and audit@, and the
 * first server refuses audit@ (`550 5.1.1 no such user audit@example.com`). The same command run
 * again sends only the last three, and its summary still names audit@ as not reached by
 * team-list, with the server's codes (`550 5.1.1`) and the command that sends it again, as the
 * first run would have; the journal holds no address for it, nor the server's answer, which names
 * it. A journal of an earlier version, which kept no code, is still read: the line names audit@
 * without a code. A recipient beyond ASCII before the @, never given to a server without
 * SMTPUTF8, is named again with that reason, as the killed run would have.
 */
import { createHash } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();
const JURGEN = "jürgen.groß@example.com";

beforeEach(async () => {
  await rm(join(ws.dir, "out"), { recursive: true, force: true });
});

const REPORTS = ["team-list", "team-chart"];
const OPTIONS = ["--catalog", "cat", "--db", "lms.duckdb", "--out", "out"];
const argsOf = (reports: readonly string[]) => ["report", ...reports, ...OPTIONS];
const args = argsOf(REPORTS);
const env = (url: string) => ({
  LMS_SMTP_URL: url,
  LMS_MAIL_FROM: "reports@example.com",
  LMS_LOG_FORMAT: "human",
  // One connection: the messages go in order, and the fourth waits for a server gone down.
  LMS_SMTP_CONNECTIONS: "1",
});
const journalOf = (reports: readonly string[]) =>
  join(
    "out",
    `.mailing-${createHash("sha256").update(reports.join("\0")).digest("hex").slice(0, 12)}.journal`,
  );
const journal = journalOf(REPORTS);

/** The command line's last word: the `lms-export:` line on stderr. */
const lastWord = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("lms-export:"));

/**
 * Mails `reports` to a server that, after three messages, takes no new connection (the fourth
 * waits to try again), and kills the run with SIGKILL then; answers its stderr and its journal.
 */
async function killedAfterThree(
  reports: readonly string[],
  server: Parameters<typeof ws.smtp>[0],
): Promise<{ stderr: string; records: string }> {
  const down = await ws.smtp({ goDownAfter: 3, closeWhenIdle: true, ...server });
  const first = spawnCli([...argsOf(reports), "--mail"], { cwd: ws.dir, env: env(down.url) });
  first.stderr?.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("trying again")) first.kill("SIGKILL");
  });
  const ended = await collect(first);
  expect(ended.signal, ended.stderr).toBe("SIGKILL");
  expect(down.received).toHaveLength(3);
  return {
    stderr: ended.stderr,
    records: await readFile(join(ws.dir, journalOf(reports)), "utf8"),
  };
}

test("a recipient refused before the kill is named again by the run that resumes", async () => {
  const { stderr, records } = await killedAfterThree(REPORTS, {
    rejectRecipients: ["audit@example.com"],
    enhancedStatusCodes: true,
  });
  expect(stderr).toContain(`rejected=["audit@example.com"]`);
  // audit@ is the second recipient of the third message: named by its place, not its address,
  // with the server's codes, not its answer.
  expect(records).toMatch(/^sent 3-\w+ refused=1:550:5\.1\.1$/m);
  expect(records).not.toContain("@");
  expect(records).not.toContain("no such user");

  const up = await ws.smtp();
  const again = await collect(spawnCli([...args, "--mail"], { cwd: ws.dir, env: env(up.url) }));
  expect(again.stdout).toContain("mail: 3 messages sent\n");
  expect(up.received.flatMap((m) => m.to)).not.toContain("audit@example.com");
  expect(again.code, again.stderr).toBe(1);
  const line = lastWord(again.stderr);
  // As the killed run would have said it: `…audit@example.com: 550 5.1.1 no such user … (the others got it)`.
  expect(line).toContain(
    "mail team-list to compliance@example.com, audit@example.com: the server refused recipient audit@example.com: 550 5.1.1 (the others got it, in an earlier mailing that was cut short; it was not sent again)",
  );
  expect(line).toContain(
    "; to send only those again: lms-export report team-list --db lms.duckdb --out out --catalog cat --mail --mail-only audit@example.com",
  );

  // The killed run's journal as an earlier version wrote it: the place alone, no code.
  await writeFile(join(ws.dir, journal), records.replace(/refused=1:550:5\.1\.1$/m, "refused=1"));
  const older = await collect(spawnCli([...args, "--mail"], { cwd: ws.dir, env: env(up.url) }));
  expect(older.code, older.stderr).toBe(1);
  expect(older.stdout).toContain("mail: 3 messages sent\n");
  expect(lastWord(older.stderr)).toContain(
    "mail team-list to compliance@example.com, audit@example.com: the server refused recipient audit@example.com (the others got it, in an earlier mailing that was cut short; it was not sent again)",
  );
}, 120_000);

test("a recipient never given to a server without SMTPUTF8 is named again with that reason", async () => {
  // team-list with its copy of the rows without a manager sent to an address beyond ASCII too.
  const report = JSON.parse(
    await readFile(join(ws.dir, "cat", "reports", "team-list.json"), "utf8"),
  );
  report.mail = { ...report.mail, cc: [JURGEN] };
  await writeFile(join(ws.dir, "cat", "reports", "team-list-intl.json"), JSON.stringify(report));
  const reports = ["team-list-intl", "team-chart"];
  const { records } = await killedAfterThree(reports, { hideSmtpUtf8: true });
  expect(records).toMatch(/^sent 3-\w+ refused=1:smtputf8$/m);
  expect(records).not.toContain("@");

  const up = await ws.smtp();
  const again = await collect(
    spawnCli([...argsOf(reports), "--mail"], { cwd: ws.dir, env: env(up.url) }),
  );
  expect(again.code, again.stderr).toBe(1);
  // As the killed run would have said it, the reason it gave the server no such address.
  expect(lastWord(again.stderr)).toContain(
    `mail team-list-intl to compliance@example.com, ${JURGEN}: the server refused recipient ${JURGEN}: the mail server does not offer SMTPUTF8, which ${JURGEN} needs (characters beyond ASCII before the @): not given to the server (the others got it, in an earlier mailing that was cut short; it was not sent again)`,
  );
}, 120_000);
