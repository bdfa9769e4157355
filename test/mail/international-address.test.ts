/**
 * Internationalised addresses (RFC 6531): a manager `jürgen.groß@example.com` in a roster gets
 * their own share of a split report, `--mail-to` takes such an address, and what is not an
 * address at all is still refused. Delivered through a real SMTP server on 127.0.0.1 that offers
 * SMTPUTF8, and through one that does not: there a domain of another script goes in its ASCII
 * form, and an address with characters beyond ASCII before the @ is never handed over, but named
 * as not delivered, like a recipient the server refused, with the command that sends it again.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { isMailAddress, parseAddressList } from "../../src/mail/address.js";
import { SmtpAttemptError } from "../../src/mail/smtp-attempt.js";
import { SmtpSession } from "../../src/mail/smtp-session.js";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { fixtureSettings, startSmtp } from "./smtp-fixture.js";

const JURGEN = "jürgen.groß@example.com";
const WANG = "王@例子.中国";
const BOOKS = "ops@bücher.de";
/** As the envelope gives it to any server; smtp-server gives it back as BOOKS. */
const BOOKS_ASCII = "ops@xn--bcher-kva.de";

describe("what an address is", () => {
  test.each([JURGEN, WANG, BOOKS, "zoé@example.com", "Ана@пример.рф"])("%s is one", (address) => {
    expect(isMailAddress(address)).toBe(true);
  });

  test.each([
    ["a space", "jürgen groß@example.com"],
    ["a no-break space", "\u00a0jürgen@example.com"],
    ["a right-to-left override", "jürgen\u202e@example.com"],
    ["a zero-width joiner", "jürgen\u200d@example.com"],
    ["a domain of one label", "王@例子"],
    ["a label starting with a hyphen", "ops@-bücher.de"],
    ["an ideographic full stop for a dot", "王@例子\u3002中国"],
    ["two @", "a@b@bücher.de"],
    ["a slash", "jü/rgen@example.com"],
    ["nothing before the @", "@bücher.de"],
  ])("one with %s is not", (_, text) => {
    expect(isMailAddress(text)).toBe(false);
  });

  test("--mail-to takes one, in any case, and still refuses what is not an address", () => {
    expect(parseAddressList("Jürgen@Example.com", "--mail-to")).toEqual(["jürgen@example.com"]);
    expect(() => parseAddressList("jürgen groß@example.com", "--mail-to")).toThrow(
      /"jürgen groß@example\.com" is not an e-mail address/,
    );
  });
});

const RAW = Buffer.from("From: r@example.com\r\nSubject: n\r\n\r\nhello\r\n");

/** `to` sent once from r@example.com to a server offering SMTPUTF8 or not; what it got. */
async function sendTo(to: string[], hideSmtpUtf8: boolean) {
  const server = await startSmtp({ hideSmtpUtf8 });
  const session = new SmtpSession(await fixtureSettings(server));
  try {
    const outcome = await session
      .send({ from: "r@example.com", to }, RAW)
      .catch((error: unknown) => error);
    return { outcome, received: server.received, commands: server.envelopeCommands };
  } finally {
    session.close();
    await server.close();
  }
}

describe("an envelope with internationalised addresses", () => {
  test("a server offering SMTPUTF8 gets them as written, with SMTPUTF8 asked for", async () => {
    const { outcome, received, commands } = await sendTo([JURGEN, WANG, "a@example.com"], false);
    expect(outcome).toMatchObject({ accepted: [JURGEN, WANG, "a@example.com"], rejected: [] });
    expect(received.map((m) => [m.to, m.smtpUtf8])).toEqual([
      [[JURGEN, WANG, "a@example.com"], true],
    ]);
    expect(commands).toContain(`RCPT TO:<${WANG}>`);
  });

  test("a domain of another script goes in its ASCII form to any server; the answer names it as given", async () => {
    for (const hide of [false, true]) {
      const { outcome, received, commands } = await sendTo([BOOKS], hide);
      expect(outcome).toMatchObject({ accepted: [BOOKS], rejected: [] });
      expect(received.map((m) => [m.to, m.smtpUtf8])).toEqual([[[BOOKS], false]]);
      expect(commands).toEqual(["MAIL FROM:<r@example.com>", `RCPT TO:<${BOOKS_ASCII}>`]);
    }
  });

  test("without SMTPUTF8 an address beyond ASCII before the @ is refused, the others get it", async () => {
    const { outcome, received, commands } = await sendTo([JURGEN, BOOKS, "a@example.com"], true);
    expect(outcome).toMatchObject({ accepted: [BOOKS, "a@example.com"], rejected: [JURGEN] });
    const answers = (outcome as { rejectedErrors: { response: string }[] }).rejectedErrors;
    expect(answers.map((e) => e.response)).toEqual([
      `the mail server does not offer SMTPUTF8, which ${JURGEN} needs (characters beyond ASCII before the @): not given to the server`,
    ]);
    expect(received.map((m) => m.to)).toEqual([[BOOKS, "a@example.com"]]);
    // Nothing beyond ASCII reached a server that did not offer SMTPUTF8.
    expect(commands).toHaveLength(3);
    expect(commands.join("")).toMatch(/^[\x20-\x7e]*$/);
  });

  test("without SMTPUTF8 a message to such addresses only is not sent at all", async () => {
    const { outcome, received, commands } = await sendTo([JURGEN, WANG], true);
    expect(outcome).toBeInstanceOf(SmtpAttemptError);
    expect((outcome as SmtpAttemptError).code).toBe("EENVELOPE");
    expect((outcome as SmtpAttemptError).message).toContain(`which ${WANG} needs`);
    expect(received).toEqual([]);
    expect(commands).toEqual([]);
  });
});

const ws = useMailWorkspace();

/** Managers as a roster may give them: internationalised, ASCII, not an address, none. */
const MANAGERS_SQL = `-- title: Managers
-- description: Managers of every kind of address.
SELECT * FROM (VALUES
  (1, 'Jürgen.Groß@example.com'),
  (2, '${WANG}'),
  (3, '${BOOKS}'),
  (4, 'sales.lead@example.com'),
  (5, 'not an address'),
  (6, NULL)
) AS t(user_id, manager_email)
`;

async function writeCatalog(): Promise<string> {
  const catalog = join(ws.dir, "intl-cat");
  await mkdir(join(catalog, "reports"), { recursive: true });
  await mkdir(join(catalog, "queries"), { recursive: true });
  await writeFile(join(catalog, "queries", "managers.sql"), MANAGERS_SQL);
  await writeFile(
    join(catalog, "reports", "intl-mail.json"),
    JSON.stringify({
      title: "Managers",
      description: "Managers of every kind.",
      queries: ["managers"],
      formats: ["csv"],
      fileName: "managers",
      mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["csv"] },
    }),
  );
  return catalog;
}

/** The split report mailed to a server offering SMTPUTF8 or not. */
async function mailSplit(hideSmtpUtf8: boolean, out: string) {
  const catalog = await writeCatalog();
  const server = await ws.smtp({ hideSmtpUtf8 });
  const run = await runCliIn(
    ws.dir,
    ["report", "intl-mail", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    { LMS_SMTP_URL: server.url, LMS_MAIL_FROM: "reports@example.com" },
  );
  await server.close();
  const ids = (to: string) => {
    const csv = server.received.find((m) => m.to.join() === to)?.parsed.attachments[0]?.content;
    return [...String(csv).matchAll(/^(\d+),/gm)].map((m) => Number(m[1]));
  };
  const copy = server.received.find((m) => m.to.join() === "compliance@example.com");
  return { run, received: server.received, ids, copy: copy?.parsed.text ?? "" };
}

describe("a split report to internationalised managers", () => {
  test("with SMTPUTF8: each manager gets their rows; the copy holds only the rows without an address", async () => {
    const { run, received, ids, copy } = await mailSplit(false, join(ws.dir, "utf8-out"));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("mail: 5 messages sent");
    expect(run.stderr).toContain('"values":["not an address"]');
    expect(received.map((m) => m.to.join()).sort()).toEqual(
      ["compliance@example.com", JURGEN, BOOKS, "sales.lead@example.com", WANG].sort(),
    );
    expect(ids(JURGEN)).toEqual([1]);
    expect(ids(WANG)).toEqual([2]);
    expect(ids(BOOKS)).toEqual([3]);
    expect(ids("compliance@example.com")).toEqual([5, 6]);
    expect(copy).toContain(
      "Only the rows whose Manager email is empty or is not an e-mail address; each row with an address went to that address.",
    );
  });

  test("without SMTPUTF8: those managers are named as not reached, exit 1, their rows not sent elsewhere", async () => {
    const out = join(ws.dir, "ascii-out");
    const { run, received, ids, copy } = await mailSplit(true, out);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("mail: 3 messages sent");
    expect(run.stderr).toMatch(
      new RegExp(
        `lms-export: mail intl-mail to ${JURGEN} not delivered after 1 attempt: the mail server does not offer SMTPUTF8, which ${JURGEN} needs .*\\(and 1 more problem; see the log\\); the report files are written; to send only those again: .*--mail-only '${JURGEN},${WANG}'\\s*$`,
      ),
    );
    expect(received.map((m) => m.to.join()).sort()).toEqual(
      ["compliance@example.com", BOOKS, "sales.lead@example.com"].sort(),
    );
    expect(ids("compliance@example.com")).toEqual([5, 6]);
    expect(copy).toContain(`except those of ${JURGEN}, ${WANG}`);
    expect(copy).toContain(join(out, "split", JURGEN));

    // The command it names, to a server offering SMTPUTF8: those two shares, nothing else.
    const again = await ws.smtp();
    const resend = await runCliIn(
      ws.dir,
      [
        ...["report", "intl-mail", "--catalog", join(ws.dir, "intl-cat"), "--db", "lms.duckdb"],
        ...["--out", out, "--mail", "--mail-only", `${JURGEN},${WANG}`],
      ],
      { LMS_SMTP_URL: again.url, LMS_MAIL_FROM: "reports@example.com" },
    );
    await again.close();
    expect(resend.code, resend.stderr).toBe(0);
    expect(again.received.map((m) => m.to.join()).sort()).toEqual([JURGEN, WANG].sort());
  });

  test("--mail-to an internationalised address sends the report to it", async () => {
    const catalog = await writeCatalog();
    const server = await ws.smtp();
    const run = await runCliIn(
      ws.dir,
      [
        ...["report", "intl-mail", "--catalog", catalog, "--db", "lms.duckdb"],
        ...["--out", join(ws.dir, "to-out"), "--mail-to", "Jürgen@Example.com"],
      ],
      { LMS_SMTP_URL: server.url, LMS_MAIL_FROM: "reports@example.com" },
    );
    await server.close();
    expect(run.code, run.stderr).toBe(0);
    expect(server.received.map((m) => m.to)).toEqual([["jürgen@example.com"]]);
  });
});
