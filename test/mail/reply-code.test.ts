/**
 * The codes a refused recipient is kept under in the mailing journal: the reply's status code
 * and enhanced status code, never its text; a line of an older journal (places alone) still read.
 */
import { expect, test } from "vitest";
import { parseRecord, recordLine } from "../../src/mail/journal-record.js";
import { replyCode } from "../../src/mail/reply-code.js";

test("a reply's status code and enhanced status code, without its text", () => {
  expect(replyCode("550 5.1.1 <audit@example.com>: Recipient address rejected")).toBe("550 5.1.1");
  expect(replyCode("550-5.1.1 The email account that you tried to reach does not exist.")).toBe(
    "550 5.1.1",
  );
  expect(replyCode("553 5.1.10 bad address")).toBe("553 5.1.10");
  expect(replyCode("550 no such user audit@example.com")).toBe("550");
  expect(replyCode("451 4.7.1 greylisted")).toBe("451 4.7.1");
  // An enhanced code of another class than the reply's is no enhanced code of it.
  expect(replyCode("550 2.0.0 odd")).toBe("550");
  expect(replyCode("550")).toBe("550");
  expect(replyCode("5501 x")).toBeUndefined();
  expect(replyCode("no such user")).toBeUndefined();
});

test("a journal line keeps each refused place's codes, and an older line without them is read", () => {
  const record = {
    status: "sent" as const,
    refused: [
      { place: 1, code: "550 5.1.1" },
      { place: 3, code: "550" },
      { place: 4, code: undefined },
    ],
  };
  const line = recordLine("3-abc", record);
  expect(line).toBe("sent 3-abc refused=1:550:5.1.1,3:550,4");
  expect(parseRecord(line)).toEqual(["3-abc", record]);
  expect(parseRecord("sent 3-abc refused=1,3")).toEqual([
    "3-abc",
    {
      status: "sent",
      refused: [
        { place: 1, code: undefined },
        { place: 3, code: undefined },
      ],
    },
  ]);
  const left = { status: "sent" as const, refused: [{ place: 2, code: "smtputf8" }] };
  expect(parseRecord(recordLine("4-abc", left))).toEqual(["4-abc", left]);
  // Cut short by a kill: no record.
  expect(parseRecord("sent 3-abc refused=1:550:5.")).toBeUndefined();
});
