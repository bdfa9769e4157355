import { describe, expect, it } from "vitest";
import { writeStderrLine } from "../../src/cli/stderr-line.js";
import { createLogger } from "../../src/log/create-logger.js";
import { textSink } from "../helpers/text-sink.js";
import { Collect } from "./collect.js";

const fixedNow = () => new Date(2026, 2, 5, 10, 22, 13);
/** Any control character but the line break that ends a line. */
const CONTROL = /(?!\n)\p{Cc}/u;

describe("text from outside reaches a terminal as visible escapes", () => {
  it("a human log line shows a message's and a field's control characters, DEL and C1 too", () => {
    const out = new Collect();
    const logger = createLogger({ format: "human", stream: out, now: fixedNow });
    // A group name clearing the screen, a title change ended by BEL, a C1 CSI, a DEL.
    logger.warn("group \u001b[2Jsales\tgone", {
      name: "a\u009b31mb",
      title: "\u001b]0;owned\u0007",
      raw: "x\u007fy",
      nested: { text: "n\u009bo" },
    });
    const [line = ""] = out.lines();
    expect(line).toBe(
      '10:22:13 WARN  group \\u001b[2Jsales\\tgone name="a\\u009b31mb" title="\\u001b]0;owned\\u0007" raw="x\\u007fy" nested={"text":"n\\u009bo"}',
    );
    expect(line).not.toMatch(CONTROL);
  });

  it("the CLI's final error line keeps its lines and shows every other control character", () => {
    const sink = textSink();
    const portalSaid = "portal said: \u001b[31mdenied\u001b[0m\r\nhint: check the key\u0007";
    writeStderrLine({ stderr: sink.stream }, "error", `lms-export: extract failed: ${portalSaid}`);
    expect(sink.text()).toBe(
      "lms-export: extract failed: portal said: \\u001b[31mdenied\\u001b[0m\nhint: check the key\\u0007\n",
    );
    expect(sink.text().split("\n").join("")).not.toMatch(CONTROL);
  });
});
