/**
 * A base URL that does not parse because its password was written unencoded: the refusal must not
 * show any of the password, whose `/`, `:` and `@` hide where the credentials end.
 */
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const PASSWORD = "p@ss:w/rd%Kë€y9";

describe("a base URL with an unencoded password that does not parse", () => {
  it.each([
    ["--base-url", [`--base-url=http://u:${PASSWORD}@127.0.0.1:9/api-v2`], {}],
    ["LMS_BASE_URL", [], { LMS_BASE_URL: `https://admin:${PASSWORD}@lms.example.com/api-v2` }],
  ])("is refused from %s without any of the password", async (_from, flags, env) => {
    const cwd = await tempDir();
    const run = await runInProcess(["extract", ...flags], cwd, {
      LMS_API_KEY: "unused-key",
      LMS_LOG_FORMAT: "json",
      ...env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("is not a valid URL");
    expect(run.stderr).toContain("not shown: it may hold a password");
    for (const part of ["ss:w", "w/rd", "rd%K", "Kë€y9"]) expect(run.stderr).not.toContain(part);
  });

  it("still shows text without an @, so a typo can be seen", async () => {
    const cwd = await tempDir();
    const run = await runInProcess(
      ["extract", "--base-url=https://lms.example.com:x/api-v2"],
      cwd,
      {
        LMS_API_KEY: "unused-key",
        LMS_LOG_FORMAT: "json",
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"https://lms.example.com:x/api-v2" is not a valid URL');
  });
});
