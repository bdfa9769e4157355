/**
 * A split message says whose rows it holds in words its recipient reads, in the HTML and the
 * text part alike; the message of rows without an address says where the others went.
 * In-process against a real SMTP server on 127.0.0.1 and a real DuckDB file.
 */
import { describe, expect, test } from "vitest";
import { reportArgs, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();
const env = (url: string) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com" });

describe("the line under a split message's header", () => {
  test("tells a manager these are their rows, and the report's own recipients what is left", async () => {
    const { run, received } = await ws.mailed(
      reportArgs("team-list", "--mail", "--out", "lead"),
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const body = (to: string) => {
      const message = received.find((m) => m.to.includes(to));
      return { html: String(message?.parsed.html), text: message?.parsed.text ?? "" };
    };
    const manager = body("sales.lead@example.com");
    const mine = "Only your rows: those whose Manager email is sales.lead@example.com.";
    expect(manager.text).toContain(mine);
    expect(manager.html).toContain(mine);
    const rest = body("compliance@example.com");
    const left =
      "Only the rows whose Manager email is empty or is not an e-mail address; each row with an address went to that address.";
    expect(rest.text).toContain(left);
    expect(rest.html).toContain(left);
    expect(manager.text).not.toContain("Rows: ");
  });
});
