/**
 * A list of addresses with an empty entry among them (`a@x,,b@x`, `ops@x,`) is refused naming
 * the setting, the list and the entry's place, as `--only` and `--format` are: an address deleted
 * or never pasted would otherwise be left out without a word. A list naming none keeps its own
 * message. parseAddressList and the CLI in this process.
 */
import { describe, expect, it } from "vitest";
import { parseAddressList } from "../../src/mail/address.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { usageErrorOf } from "../helpers/usage-error.js";

const FIX =
  "is empty (a comma too many); give plain addresses such as compliance@example.com, separated by commas";

const CASES: Record<string, string> = {
  "a@example.com,,b@example.com": '"a@example.com,,b@example.com": entry 2 of 3',
  "ops@example.com,": '"ops@example.com,": entry 2 of 2',
  " , ops@example.com": '" , ops@example.com": entry 1 of 2',
};

describe("an address list with an empty entry", () => {
  it("is refused naming the entry: between commas, after the last, before the first", async () => {
    for (const [list, entry] of Object.entries(CASES)) {
      const message = await usageErrorOf(async () => parseAddressList(list, "--mail-default-to"));
      expect(message).toBe(`--mail-default-to ${entry} ${FIX}`);
    }
  });

  it("a config file's list with an empty string is refused alike; a full list is read", async () => {
    const message = await usageErrorOf(async () =>
      parseAddressList(["ops@example.com", ""], "lms.json (mail.failuresTo)"),
    );
    expect(message).toBe(`lms.json (mail.failuresTo) "ops@example.com,": entry 2 of 2 ${FIX}`);
    expect(parseAddressList("A@Example.com, b@example.com", "x")).toEqual([
      "a@example.com",
      "b@example.com",
    ]);
  });

  it("a password pasted among the addresses is cut in the refusal, as elsewhere", async () => {
    const message = await usageErrorOf(async () =>
      parseAddressList("a@example.com,Tr0ub4dor-3-horse-Battery,", "--mail-to"),
    );
    expect(message).toBe(
      `--mail-to "a@example.com,Tr0u…," (shown in part: it may be a secret): entry 3 of 3 ${FIX}`,
    );
  });

  it("LMS_MAIL_FAILURES_TO with a trailing comma stops a report before it runs, exit 2", async () => {
    const cwd = tempDirForFile("lms-address-empty-");
    const run = await runInProcess(["report", "completion-overview", "--db", "none.duckdb"], cwd, {
      LMS_MAIL_FAILURES_TO: "ops@example.com,",
    });
    expect([run.code, run.stderr]).toEqual([
      2,
      `lms-export: LMS_MAIL_FAILURES_TO "ops@example.com,": entry 2 of 2 ${FIX}\n`,
    ]);
  });
});
