/**
 * `report ... --mail` / `--mail-to` in-process against a real SMTP server on 127.0.0.1 and a real
 * DuckDB file: recipients, subject, attachments byte-equal to the written files, the split per
 * manager, `when: "rows"`, and settings checked before anything is written.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { reportArgs, runCliIn, useMailWorkspace } from "./cli-harness.js";
import { MANAGERS, UNASSIGNED } from "./mail-dataset.js";

const ws = useMailWorkspace();

const FROM = "reports@example.com";

function env(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { LMS_SMTP_URL: url, LMS_MAIL_FROM: FROM, ...extra };
}

/** The data rows of a CSV as objects keyed by header (the exports hold no quoted commas here). */
function csvRows(text: string): Record<string, string>[] {
  const [head = "", ...lines] = text.trimEnd().split(/\r?\n/);
  const names = head.split(",");
  return lines.map((line) =>
    Object.fromEntries(line.split(",").map((v, i) => [names[i], v.replace(/^"|"$/g, "")])),
  );
}

describe("a split report", () => {
  test("each manager gets only their rows in body and attachments; the rest go to `to` with cc", async () => {
    const smtp = await ws.smtp();
    const out = join(ws.dir, "split-out");
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail", "--out", out),
      env(smtp.url),
    );
    expect(run.stderr).not.toContain('"level":"error"');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("mail: 3 messages sent");
    await smtp.close();

    const written = await readdir(out);
    const csvName = written.find((f) => f.endsWith(".csv")) as string;
    const date = /team-list-(\d{4}-\d{2}-\d{2})\.csv/.exec(csvName)?.[1];
    expect(date).toBeDefined();
    expect(smtp.received).toHaveLength(3);
    for (const message of smtp.received) {
      expect(message.from).toBe(FROM);
      expect(message.parsed.subject).toBe(`Team list for ${date}`);
      expect(message.parsed.attachments.map((a) => a.filename).sort()).toEqual([
        `team-list-${date}.csv`,
        `team-list-${date}.xlsx`,
      ]);
    }
    for (const [manager, users] of Object.entries(MANAGERS)) {
      const message = smtp.received.find((m) => m.to.join() === manager);
      expect(message, manager).toBeDefined();
      if (!message) continue;
      expect(message.parsed.cc).toBeUndefined();
      for (const attachment of message.parsed.attachments) {
        const onDisk = await readFile(join(out, "split", manager, attachment.filename as string));
        expect(attachment.content.equals(onDisk)).toBe(true);
      }
      const csv = message.parsed.attachments.find((a) => a.filename?.endsWith(".csv"));
      const rows = csvRows(csv?.content.toString("utf8") ?? "");
      expect(rows.map((r) => Number(r.user_id)).sort()).toEqual([...users].sort());
      expect(new Set(rows.map((r) => r.manager_email?.toLowerCase()))).toEqual(new Set([manager]));
      const html = String(message.parsed.html);
      expect(html).toContain(manager);
      // The body's table holds this manager's people and nobody else (user_id is its first column).
      const bodyIds = [...html.matchAll(/<tr><td[^>]*>(\d+)<\/td>/g)].map((m) => Number(m[1]));
      expect(bodyIds.sort()).toEqual([...users].sort());
      const textIds = (message.parsed.text ?? "")
        .split("\n")
        .flatMap((line) => /^(\d+) \| /.exec(line)?.slice(1) ?? [])
        .map(Number);
      expect(textIds.sort()).toEqual([...users].sort());
      expect(message.parsed.text).toContain("2 rows");
    }
    const rest = smtp.received.find((m) => m.to.includes("compliance@example.com"));
    expect(rest?.to.sort()).toEqual(["audit@example.com", "compliance@example.com"]);
    const restCsv = rest?.parsed.attachments.find((a) => a.filename?.endsWith(".csv"));
    expect(
      restCsv?.content.equals(
        await readFile(join(out, "split", "unassigned", `team-list-${date}.csv`)),
      ),
    ).toBe(true);
    const restRows = csvRows(restCsv?.content.toString("utf8") ?? "");
    expect(restRows.map((r) => Number(r.user_id)).sort()).toEqual(UNASSIGNED);
    expect(restRows.every((r) => r.manager_email === "")).toBe(true);
    const restIds = [...String(rest?.parsed.html).matchAll(/<tr><td[^>]*>(\d+)<\/td>/g)];
    expect(restIds.map((m) => Number(m[1])).sort()).toEqual(UNASSIGNED);
    // The whole report is written too, untouched by the split.
    expect(csvRows(await readFile(join(out, csvName), "utf8"))).toHaveLength(9);
  });

  test("text from the data is escaped in the HTML body", async () => {
    const { run, received } = await ws.mailed(
      reportArgs("team-list", "--mail", "--out", "esc-out"),
      env,
    );
    expect(run.code).toBe(0);
    const sales = received.find((m) => m.to.join() === "sales.lead@example.com");
    expect(String(sales?.parsed.html)).toContain("Bea &lt;b&gt;");
    expect(String(sales?.parsed.html)).not.toContain("Bea <b>");
    expect(sales?.parsed.text).toContain("Bea <b>");
  });
});

describe("--mail-to", () => {
  test("sends the whole report to those addresses only, files attached byte for byte", async () => {
    const smtp = await ws.smtp();
    const out = join(ws.dir, "to-out");
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "Ops@Example.com,ops2@example.com", "--out", out),
      env(smtp.url),
    );
    expect(run.code).toBe(0);
    await smtp.close();
    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message?.to.sort()).toEqual(["ops2@example.com", "ops@example.com"]);
    for (const attachment of message?.parsed.attachments ?? []) {
      expect(
        attachment.content.equals(await readFile(join(out, attachment.filename as string))),
      ).toBe(true);
    }
    expect(message?.parsed.text).toContain("9 rows");
  });

  test("a query without a mail block gets the default subject and every format", async () => {
    const smtp = await ws.smtp();
    const run = await runCliIn(
      ws.dir,
      [
        ...reportArgs(
          "group-managers",
          "--mail-to",
          "ops@example.com",
          "--format",
          "csv",
          "--out",
          "q-out",
        ),
      ],
      env(smtp.url),
    );
    expect(run.code).toBe(0);
    await smtp.close();
    expect(smtp.received[0]?.parsed.subject).toMatch(
      /^Group managers: people and the admins of their groups \(\d{4}-\d{2}-\d{2}\)$/,
    );
    expect(smtp.received[0]?.parsed.attachments).toHaveLength(1);
  });

  test("a bad address stops the command before anything is written", async () => {
    const smtp = await ws.smtp();
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com,not an address", "--out", "bad-out"),
      env(smtp.url),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--mail-to: "not an address" is not an e-mail address');
    expect(existsSync(join(ws.dir, "bad-out"))).toBe(false);
    expect(smtp.received).toHaveLength(0);
  });
});

describe("when and settings", () => {
  test('when: "rows" sends nothing for an empty result, and the file is still written', async () => {
    const smtp = await ws.smtp();
    const run = await runCliIn(
      ws.dir,
      reportArgs("empty-team", "--mail", "--out", "empty-out"),
      env(smtp.url),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("mail: 0 messages sent");
    expect(run.stderr).toContain("no rows: report not mailed");
    expect(
      (await readdir(join(ws.dir, "empty-out"))).filter((f) => f.endsWith(".csv")),
    ).toHaveLength(1);
    expect(smtp.received).toHaveLength(0);
  });

  test("missing settings: exit 2 naming what to set, before anything is written", async () => {
    const run = await runCliIn(ws.dir, reportArgs("team-list", "--mail", "--out", "unset-out"), {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("sending mail needs settings: set LMS_SMTP_URL");
    expect(run.stderr).toContain("LMS_MAIL_FROM");
    expect(existsSync(join(ws.dir, "unset-out"))).toBe(false);
  });

  test("--csv-bom reaches each manager's CSV as it reaches the whole report's", async () => {
    const out = join(ws.dir, "bom-out");
    const smtp = await ws.smtp();
    const args = reportArgs("team-list", "--mail", "--csv-bom", "--out", out);
    expect((await runCliIn(ws.dir, args, env(smtp.url))).code).toBe(0);
    await smtp.close();
    const bom = (bytes: Buffer) => bytes.subarray(0, 3).toString("hex");
    const csvName = (await readdir(out)).find((f) => f.endsWith(".csv")) as string;
    expect(bom(await readFile(join(out, csvName)))).toBe("efbbbf");
    for (const manager of Object.keys(MANAGERS)) {
      expect(bom(await readFile(join(out, "split", manager, csvName))), manager).toBe("efbbbf");
    }
    for (const message of smtp.received) {
      const csv = message.parsed.attachments.find((a) => a.filename?.endsWith(".csv"));
      expect(bom(csv?.content ?? Buffer.alloc(0))).toBe("efbbbf");
    }
  });

  test("--mail on a report without a mail block is refused before anything is written", async () => {
    const run = await runCliIn(
      ws.dir,
      reportArgs("group-managers", "--mail", "--out", "noblock-out"),
      env("smtp://127.0.0.1:25"),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('has no "mail" block');
    expect(existsSync(join(ws.dir, "noblock-out"))).toBe(false);
  });

  test("an attached format that is not written is refused, naming the file and the field", async () => {
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail", "--format", "csv", "--out", "fmt-out"),
      env("smtp://127.0.0.1:25"),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /team-list\.json: field mail\.attach\[1\]: xlsx is not among the formats written/,
    );
    expect(existsSync(join(ws.dir, "fmt-out"))).toBe(false);
  });
});

test("the body shows at most 50 rows and says the full list is attached", async () => {
  await writeFile(
    join(ws.dir, "many.sql"),
    "-- title: Many\nSELECT range AS n, 'row ' || range AS label FROM range(250)\n",
  );
  const smtp = await ws.smtp();
  const run = await runCliIn(
    ws.dir,
    reportArgs("many.sql", "--mail-to", "ops@example.com", "--format", "csv", "--out", "many-out"),
    env(smtp.url),
  );
  expect(run.code).toBe(0);
  await smtp.close();
  const message = smtp.received[0];
  const html = String(message?.parsed.html);
  expect(html).toContain(">row 49<");
  expect(html).not.toContain(">row 50<");
  expect(message?.parsed.text).toMatch(
    /The first 50 of 250 rows are shown; the full list is attached: see many-\d{4}-\d{2}-\d{2}\.csv\./,
  );
  expect(csvRows(message?.parsed.attachments[0]?.content.toString("utf8") ?? "")).toHaveLength(250);
});

test("a report or .sql file named twice is written and mailed once", async () => {
  await writeFile(join(ws.dir, "few.sql"), "-- title: Few\nSELECT range AS n FROM range(3)\n");
  const smtp = await ws.smtp();
  const names = ["team-list", "few.sql", "team-list", "./few.sql"];
  const run = await runCliIn(
    ws.dir,
    [...reportArgs(names[0] ?? "", ...names.slice(1)), "--mail", "--out", "twice-out"],
    env(smtp.url, { LMS_MAIL_DEFAULT_TO: "ops@example.com" }),
  );
  expect(run.code, run.stderr).toBe(0);
  // Two shares and the copy of team-list, and few.sql to the default recipient: once each.
  expect(run.stdout).toContain("mail: 4 messages sent");
  await smtp.close();
  const sent = smtp.received.map((m) => `${m.to.join(",")} ${m.parsed.subject}`);
  expect(new Set(sent).size).toBe(4);
  expect(sent).toHaveLength(4);
  const files = run.stdout.split("\n").filter((line) => line.includes("twice-out"));
  expect(files.length).toBeGreaterThan(0);
  expect(new Set(files).size).toBe(files.length);
});

test("an address in both to and cc, in any case, is listed once, in To", async () => {
  const block = {
    to: ["Compliance@Example.com", "audit@example.com", "compliance@example.com"],
    cc: ["AUDIT@example.com", "boss@example.com", "Boss@Example.com"],
  };
  const definition = {
    title: "Overlap",
    description: "To and cc naming the same people.",
    queries: ["team-size"],
    formats: ["csv"],
    fileName: "overlap-{date}",
    mail: block,
  };
  await writeFile(join(ws.dir, "cat", "reports", "overlap.json"), JSON.stringify(definition));
  const smtp = await ws.smtp();
  const run = await runCliIn(
    ws.dir,
    reportArgs("overlap", "--mail", "--out", "overlap-out"),
    env(smtp.url),
  );
  expect(run.code, run.stderr).toBe(0);
  await smtp.close();
  expect(smtp.received).toHaveLength(1);
  const message = smtp.received[0];
  expect(message?.parsed.headers.get("to")).toMatchObject({
    value: [{ address: "compliance@example.com" }, { address: "audit@example.com" }],
  });
  expect(message?.parsed.headers.get("cc")).toMatchObject({
    value: [{ address: "boss@example.com" }],
  });
  expect(message?.to).toEqual(["compliance@example.com", "audit@example.com", "boss@example.com"]);
});
