/**
 * A message to an ASCII recipient and to ones whose local part is beyond ASCII, mailed through a
 * real SMTP server on 127.0.0.1 that does not offer SMTPUTF8: those are left out of the envelope
 * and named as not delivered (src/mail/smtp-utf8.ts), and the copy the others receive does not
 * name them in its To or Cc either (src/mail/header-recipients.ts): its header is ASCII.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { withoutRecipients } from "../../src/mail/header-recipients.js";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const JURGEN = "jürgen.groß@example.com";
const WANG = "王@例子.中国";
const BOOKS = "ops@bücher.de";

const QUERY_SQL = `-- title: People
-- description: A few people.
SELECT * FROM (VALUES (1, 'Ana'), (2, 'Bo')) AS t(user_id, name)
`;

/** The header section of a received message, as bytes read as text. */
function headerOf(raw: Buffer): string {
  return raw.subarray(0, raw.indexOf("\r\n\r\n")).toString("utf8");
}

test("without SMTPUTF8 the others' copy names only the recipients it was sent to", async () => {
  const catalog = join(ws.dir, "header-cat");
  await mkdir(join(catalog, "reports"), { recursive: true });
  await mkdir(join(catalog, "queries"), { recursive: true });
  await writeFile(join(catalog, "queries", "people.sql"), QUERY_SQL);
  await writeFile(
    join(catalog, "reports", "people-mail.json"),
    JSON.stringify({
      title: "People",
      description: "A few people.",
      queries: ["people"],
      formats: ["csv"],
      fileName: "people",
      mail: { to: ["compliance@example.com", JURGEN, BOOKS], cc: [WANG], attach: ["csv"] },
    }),
  );
  const server = await ws.smtp({ hideSmtpUtf8: true });
  const run = await runCliIn(
    ws.dir,
    [
      ...["report", "people-mail", "--catalog", catalog, "--db", "lms.duckdb"],
      ...["--out", join(ws.dir, "header-out"), "--mail"],
    ],
    { LMS_SMTP_URL: server.url, LMS_MAIL_FROM: "reports@example.com" },
  );
  await server.close();
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`--mail-only '${JURGEN},${WANG}'`);
  expect(server.received.map((m) => m.to)).toEqual([["compliance@example.com", BOOKS]]);
  const received = server.received[0];
  const header = headerOf(received?.raw ?? Buffer.alloc(0));
  expect(header).toMatch(/^[\x00-\x7f]*$/);
  expect(header).toMatch(/^To: compliance@example\.com, ops@xn--bcher-kva\.de$/m);
  expect(header).not.toMatch(/^Cc:/im);
  expect(received?.parsed.attachments[0]?.content.toString()).toContain("Ana");
});

test("a long To header loses the address wherever it is folded, and the body is kept as it was", () => {
  const people = Array.from({ length: 8 }, (_, i) => `person.number${i}@example.com`);
  const raw = Buffer.from(
    `From: r@example.com\r\nTo: ${people.slice(0, 4).join(", ")},\r\n ${JURGEN},\r\n ${people.slice(4).join(", ")}\r\nSubject: s\r\n\r\nfor ${JURGEN}\r\n`,
  );
  const text = withoutRecipients(raw, [JURGEN]).toString("utf8");
  const [head, body] = text.split("\r\n\r\n");
  expect(body).toBe(`for ${JURGEN}\r\n`);
  expect(head).not.toContain(JURGEN);
  const lines = (head ?? "").split("\r\n");
  expect(lines.every((line) => line.length <= 78)).toBe(true);
  const to = (head ?? "").match(/^To:.*(?:\r\n[ \t].*)*/m)?.[0] ?? "";
  expect(
    to
      .replace(/\r\n[ \t]/g, " ")
      .slice(3)
      .split(",")
      .map((a) => a.trim()),
  ).toEqual(people);
  expect(lines.at(-1)).toBe("Subject: s");
});
