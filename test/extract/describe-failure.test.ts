import { describe, expect, it } from "vitest";
import { HttpError } from "../../src/api/errors.js";
import { describeFailure } from "../../src/extract/describe-failure.js";

describe("describeFailure", () => {
  it("keeps the first line of a DuckDB message and says how to give DuckDB more memory", () => {
    const error = new Error(
      "FATAL Error: Failed to create checkpoint because of error: failed to pin block of size 256.0 KiB (61.0 MiB/61.0 MiB used)\n\nPossible solutions:\n* Reducing the number of threads (SET threads=X)",
    );
    expect(describeFailure(error, false)).toEqual({
      message:
        "extract failed: FATAL Error: Failed to create checkpoint because of error: failed to pin block of size 256.0 KiB (61.0 MiB/61.0 MiB used); DuckDB ran out of its memory ceiling: set LMS_DUCKDB_MEMORY_LIMIT higher (e.g. 1GB) and run again",
      code: "out-of-memory",
    });
  });

  it("any other DuckDB failure is its first line, without a memory hint", () => {
    const error = new Error("IO Error: No space left on device\n\nMore detail");
    expect(describeFailure(error, false)).toEqual({
      message: "extract failed: IO Error: No space left on device",
      code: "disk-full",
    });
  });

  it("a redirect (never followed) is a wrong base URL: bad input", () => {
    const context = { operation: "authenticate", method: "POST", path: "/api-v2/token" } as const;
    const error = new HttpError(context, "the portal answered with a redirect to lms.example.org", {
      httpStatus: 302,
    });
    expect(describeFailure(error, false)).toEqual({
      message:
        "extract failed: authenticate (POST /api-v2/token, HTTP 302): the portal answered with a redirect to lms.example.org",
      code: "bad-input",
    });
  });
});
