import { describe, expect, it } from "vitest";
import { scratchProject as project, runProjectScript } from "../helpers/project-script.js";

const check = (root: string) => runProjectScript("check-sizes.mjs", root);

/** A function of `statements` + 4 lines of code, each statement followed by a comment and a blank line. */
function functionOf(name: string, statements: number): string {
  const body = Array.from({ length: statements }, (_, i) => `  x += ${i};\n  // why\n\n`);
  return `export function ${name}(): number {\n  let x = 0;\n${body.join("")}  return x;\n}\n`;
}

describe("check:sizes", () => {
  it("counts code lines only, and looks at src alone", async () => {
    const root = await project({
      "extract/short.ts": functionOf("short", 56),
      "api/arrow.ts": `export const arrow = () => {\n  const s = \`a\n\${1}\nb\`;\n  return s;\n};\n`,
      "report/short.ts": functionOf("alsoShort", 56),
      // Outside src: not the check's business.
      "../scripts/long.ts": functionOf("long", 500),
    });
    const result = await check(root);
    expect(result.output).toContain("check:sizes: 3 files in src, none too long");
    expect(result.code).toBe(0);
  });

  it("fails on a long function and a long file, naming each", async () => {
    const root = await project({
      "extract/long.ts": functionOf("tooLong", 57),
      "api/big.ts": Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};\n`).join(""),
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      "src/extract/long.ts: tooLong (line 1) has 61 lines of code (at most 60)",
    );
    expect(result.output).toContain("src/api/big.ts has 401 lines (at most 400)");
    expect(result.output).toContain("check:sizes: 2 problem(s)");
  });
});
