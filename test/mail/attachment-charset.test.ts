/**
 * The text files attached to a report's mail (CSV, HTML) say they are UTF-8, as they are written:
 * a CSV without a byte-order mark sent as a bare `text/csv` was previewed by mail clients in
 * another charset ("ZoÃ©"). The attachment stays byte for byte the file on disk; files that are
 * not text keep the type nodemailer gives them. Read back from the message bytes by mailparser.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, expect, test } from "vitest";
import { composeMail } from "../../src/mail/compose.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-charset-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("CSV and HTML attachments are sent as UTF-8 text, byte for byte; others keep their type", async () => {
  const files = {
    "team.csv": Buffer.from("user_id,firstname\n1001,Zoé\n1003,小明\n", "utf8"),
    "team.html": Buffer.from('<!doctype html><meta charset="utf-8"><p>Zoé</p>\n', "utf8"),
    "team.xlsx": Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xc3, 0xa9]),
  };
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  const { raw } = await composeMail({
    from: "reports@example.com",
    to: ["zoe@example.com"],
    cc: [],
    subject: "Team",
    body: { html: "<p>Team</p>", text: "Team", inline: [] },
    files: Object.keys(files).map((name) => join(dir, name)),
    date: new Date("2026-11-27T10:00:00Z"),
  });
  const parsed = await simpleParser(raw);
  const header = (name: string) => {
    const attachment = parsed.attachments.find((a) => a.filename === name);
    expect(attachment?.content.equals(files[name as keyof typeof files])).toBe(true);
    return attachment?.headers.get("content-type") as { value: string; params: object };
  };
  expect(header("team.csv")).toEqual({
    value: "text/csv",
    params: { charset: "utf-8", name: "team.csv" },
  });
  expect(header("team.html")).toEqual({
    value: "text/html",
    params: { charset: "utf-8", name: "team.html" },
  });
  expect(header("team.xlsx")).toEqual({
    value: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    params: { name: "team.xlsx" },
  });
});
