import { describe, expect, it } from "vitest";
import { scratchProject as project, runProjectScript } from "../helpers/project-script.js";

const check = (root: string) => runProjectScript("check-layers.mjs", root);

describe("check:layers", () => {
  it("passes imports that go down the layers", async () => {
    const root = await project({
      "cli/main.ts": 'import { extract } from "../extract/run.js";\n',
      "extract/run.ts":
        'import { load } from "../load/db.js";\nimport type { R } from "../resources/registry.js";\nexport const extract = load;\n',
      "load/db.ts": 'import { encode } from "../encode/batch.js";\nexport const load = encode;\n',
      "encode/batch.ts": "export const encode = 1;\n",
      "resources/registry.ts": "export type R = number;\n",
    });
    const result = await check(root);
    expect(result.output).toContain("no layer crossed, no cycle");
    expect(result.code).toBe(0);
  });

  it("fails on an import up the layers, a forbidden package and a cycle, naming each", async () => {
    const root = await project({
      "load/append.ts": 'import { fill } from "../extract/fill.js";\nexport const a = fill;\n',
      "extract/fill.ts": "export const fill = 1;\n",
      "api/client.ts":
        'import { DuckDBInstance } from "@duckdb/node-api";\nexport const c = DuckDBInstance;\n',
      "report/send.ts": 'import { request } from "undici";\nexport const s = request;\n',
      "simulator/data.ts": 'import type { T } from "./inserts.js";\nexport type D = T;\n',
      "simulator/inserts.ts": 'import type { D } from "./data.js";\nexport type T = D;\n',
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      "src/load/append.ts imports src/extract/fill.ts: load (layer 2) must not depend on extract (layer 3)",
    );
    expect(result.output).toContain("src/api/client.ts imports @duckdb/node-api");
    expect(result.output).toContain("src/report/send.ts imports undici");
    expect(result.output).toContain(
      "import cycle: src/simulator/data.ts <-> src/simulator/inserts.ts",
    );
    expect(result.output).toContain("check:layers: 4 problem(s)");
  });
});
