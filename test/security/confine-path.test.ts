import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LmsExportError } from "../../src/errors/lms-export-error.js";
import { confinePath } from "../../src/security/confine-path.js";

let root: string;
let outDir: string;
let outside: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lms-confine-"));
  outDir = join(root, "out");
  outside = join(root, "elsewhere");
  mkdirSync(outDir);
  mkdirSync(outside);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function refusal(name: string): string {
  try {
    confinePath(outDir, name);
  } catch (error) {
    expect(error).toMatchObject({ code: "bad-input" });
    const message = (error as LmsExportError).message;
    expect(message).not.toContain("\n");
    expect(message).toContain(outDir);
    return message;
  }
  throw new Error(`expected ${JSON.stringify(name)} to be refused`);
}

describe("confinePath", () => {
  it("answers a path inside the output folder for plain names and subfolders", () => {
    expect(confinePath(outDir, "weekly-compliance.csv")).toBe(
      join(outDir, "weekly-compliance.csv"),
    );
    expect(confinePath(outDir, "2026/03/report.xlsx")).toBe(
      join(outDir, "2026", "03", "report.xlsx"),
    );
    expect(confinePath(outDir, "./a.csv")).toBe(join(outDir, "a.csv"));
  });

  it("answers a path that can really be written and read back", () => {
    const target = confinePath(outDir, "report.csv");
    writeFileSync(target, "a,b\n1,2\n");
    expect(confinePath(outDir, "report.csv")).toBe(target);
  });

  it.each(["../x.csv", "../../etc/passwd", "a/../../x.csv", "a/../b.csv", "..\\..\\x.csv", ".."])(
    "refuses %s (a .. segment)",
    (name) => {
      expect(refusal(name)).toContain('".."');
    },
  );

  it.each(["/etc/passwd", "C:\\Windows\\x.csv", "\\\\server\\share\\x.csv"])(
    "refuses the absolute name %s",
    (name) => {
      expect(refusal(name)).toContain("absolute");
    },
  );

  it("refuses NUL bytes and empty names", () => {
    expect(refusal("report\0.csv")).toContain("NUL");
    expect(refusal("")).toContain("empty");
    expect(refusal(".")).toContain("inside the output directory");
  });

  it("refuses a folder inside the output folder that links outside", () => {
    symlinkSync(outside, join(outDir, "escape"));
    expect(refusal("escape/report.csv")).toContain("symbolic link");
    expect(refusal("escape/deeper/report.csv")).toContain("symbolic link");
  });

  it("refuses a file that is a link to a file outside", () => {
    writeFileSync(join(outside, "victim.txt"), "keep me");
    symlinkSync(join(outside, "victim.txt"), join(outDir, "report.csv"));
    expect(refusal("report.csv")).toContain("symbolic link");
    symlinkSync(join(outside, "missing.txt"), join(outDir, "dangling.csv"));
    expect(refusal("dangling.csv")).toContain("symbolic link");
  });

  it("allows links that stay inside, and an output folder that is itself a link", () => {
    mkdirSync(join(outDir, "real"));
    symlinkSync(join(outDir, "real"), join(outDir, "alias"));
    expect(confinePath(outDir, "alias/report.csv")).toBe(join(outDir, "alias", "report.csv"));
    const linkedOut = join(root, "linked-out");
    symlinkSync(outDir, linkedOut);
    expect(confinePath(linkedOut, "report.csv")).toBe(join(linkedOut, "report.csv"));
  });

  it("works before the output folder exists", () => {
    const fresh = join(root, "not-yet");
    expect(confinePath(fresh, "a/b.csv")).toBe(join(fresh, "a", "b.csv"));
  });
});
