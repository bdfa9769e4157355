/**
 * The report's charts in the mail body, through a real SMTP server on 127.0.0.1 and parsed back
 * with mailparser: one inline PNG per declared chart, referenced by `cid:` from the HTML part,
 * drawn (its pixels read back with an independent PNG reader), no SVG in the HTML; a split
 * message whose body, tables and charts, comes from its recipient's rows only; and Content-IDs in
 * RFC 2392's `left@right` form, fresh for each message.
 */
import { simpleParser } from "mailparser";
import { describe, expect, test } from "vitest";
import { reportArgs, useMailWorkspace } from "./cli-harness.js";
import { darkPixels, decodePng, distinctColours, PNG_SIGNATURE } from "./png-pixels.js";
import type { Received } from "./smtp-fixture.js";

const ws = useMailWorkspace();

function env(url: string): Record<string, string> {
  return { LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com" };
}

/** The split report with a chart: one message for each of its three recipients. */
async function mailedTeamChart(out: string): Promise<Received[]> {
  const { run, received } = await ws.mailed(reportArgs("team-chart", "--mail", "--out", out), env);
  expect(run.code).toBe(0);
  expect(received).toHaveLength(3);
  return received;
}

function inlineImages(message: Received) {
  return message.parsed.attachments.filter((a) => a.contentDisposition === "inline");
}

async function checkCharts(message: Received, count: number): Promise<Buffer[]> {
  // mailparser turns cid: links into data: URLs unless asked to keep them.
  const html = String((await simpleParser(message.raw, { keepCidLinks: true })).html);
  expect(html).not.toContain("<svg");
  const images = inlineImages(message);
  expect(images).toHaveLength(count);
  const referenced = [...html.matchAll(/<img src="cid:([^"]+)"/g)].map((m) => m[1]);
  expect(referenced.sort()).toEqual(images.map((i) => i.cid).sort());
  for (const image of images) {
    expect(image.contentType).toBe("image/png");
    expect(image.content.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const decoded = decodePng(image.content);
    expect(decoded.width).toBeGreaterThan(100);
    expect(distinctColours(decoded)).toBeGreaterThan(10);
    // Axes, labels and marks are drawn: well over a few hundred dark pixels.
    expect(darkPixels(decoded)).toBeGreaterThan(500);
  }
  expect(message.parsed.text).toMatch(/Chart: /);
  return images.map((i) => i.content);
}

describe("charts in the body", () => {
  test("weekly-compliance: one inline PNG per chart, headline figures, the tables", async () => {
    const { run, received } = await ws.mailed(
      reportArgs(
        "weekly-compliance",
        "--mail-to",
        "ops@example.com",
        "--format",
        "csv",
        "--out",
        "weekly-out",
      ),
      env,
    );
    expect(run.stderr).not.toContain('"level":"error"');
    expect(run.code).toBe(0);
    expect(received).toHaveLength(1);
    const message = received[0] as Received;
    await checkCharts(message, 2);
    const html = String(message.parsed.html);
    expect(html).toContain("Completion rate at the end of each week");
    expect(html).toContain(
      "Overdue required products by group: direct members only (a person in several groups counts in each)",
    );
    const text = message.parsed.text ?? "";
    expect(text).toMatch(/Completion rate: \d/);
    expect(text).toMatch(/Data loaded: /);
    for (const title of [
      "Compliance summary: overall, per group and per roster column",
      "Compliance: required products per person",
      "Overdue required products by group (direct members only)",
      "Completion by product, for all users and per group",
    ]) {
      expect(text.split("\n")).toContain(title);
    }
    // Files are attached as well as the images.
    expect(message.parsed.attachments.filter((a) => a.filename?.endsWith(".csv")).length).toBe(6);
  });

  test("a split report: each manager's body and chart are drawn from their rows only", async () => {
    const received = await mailedTeamChart("chart-out");
    const groupsOf = (message: Received) =>
      (message.parsed.text ?? "")
        .split("\n")
        .flatMap((line) => /^(\w+) \| /.exec(line)?.[1] ?? [])
        .filter((first) => first !== "Group");
    const byRecipient = new Map(received.map((m) => [m.to.join(), m]));
    const sales = byRecipient.get("sales.lead@example.com") as Received;
    const north = byRecipient.get("north.lead@example.com") as Received;
    const rest = byRecipient.get("compliance@example.com") as Received;
    expect(groupsOf(sales)).toEqual(["Sales"]);
    expect(groupsOf(north)).toEqual(["North"]);
    expect(groupsOf(rest).sort()).toEqual(["Company", "LoopA", "LoopB", "Orphan", "Support"]);
    expect(String(sales.parsed.html)).not.toContain(">North<");
    const [salesPng] = await checkCharts(sales, 1);
    const [northPng] = await checkCharts(north, 1);
    const [restPng] = await checkCharts(rest, 1);
    // Drawn from different rows, the charts differ.
    expect(salesPng?.equals(northPng as Buffer)).toBe(false);
    expect(salesPng?.equals(restPng as Buffer)).toBe(false);
  });

  test("each image's Content-ID is name.token@lms-export, fresh for each message, and the HTML links to it", async () => {
    const received = await mailedTeamChart("cid-out");
    const cids = new Set<string>();
    for (const message of received) {
      const images = inlineImages(message);
      expect(images).toHaveLength(1);
      for (const image of images) {
        expect(image.cid).toMatch(/^chart-1\.[0-9a-f]{12}@lms-export$/);
        expect(image.filename).toBe("chart-1.png");
        expect(message.raw.toString("latin1")).toContain(`\r\nContent-ID: <${image.cid}>\r\n`);
        cids.add(image.cid as string);
      }
      const html = String((await simpleParser(message.raw, { keepCidLinks: true })).html);
      const referenced = [...html.matchAll(/<img src="cid:([^"]+)"/g)].map((m) => m[1]);
      expect(referenced).toEqual(images.map((i) => i.cid));
    }
    expect(cids.size).toBe(received.length);
  });
});
