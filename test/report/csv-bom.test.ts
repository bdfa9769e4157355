/**
 * CSV for people: a UTF-8 byte-order mark at the start only when a definition ("csvBom": true) or
 * --csv-bom asks for it; the rest of the file is the same bytes.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const today = () => new Date().toISOString().slice(0, 10);
let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-bom-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await mkdir(join(cwd, "team", "queries"), { recursive: true });
  await mkdir(join(cwd, "team", "reports"), { recursive: true });
  await writeFile(
    join(cwd, "team", "queries", "labels.sql"),
    "-- title: Labels\n-- description: Accented text.\nSELECT * FROM (VALUES (1, 'Sécurité'), (2, 'Überprüfung, Teil 2')) AS t(n, label)\n",
  );
  const report = (csvBom: boolean) =>
    JSON.stringify({
      title: "Labels",
      description: "Labels for people.",
      queries: ["labels"],
      formats: ["csv"],
      ...(csvBom ? { csvBom } : {}),
      fileName: `labels-${csvBom ? "bom" : "plain"}`,
    });
  await writeFile(join(cwd, "team", "reports", "people.json"), report(true));
  await writeFile(join(cwd, "team", "reports", "data.json"), report(false));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const run = await runInProcess(args, cwd);
  expect(run.code, run.stderr).toBe(0);
}

describe("CSV byte-order mark", () => {
  it("starts a definition's CSV with EF BB BF when it says csvBom, the rest identical", async () => {
    await cli(["report", "people", "data", "--catalog", "team", "--out", "a"]);
    const withBom = await readFile(join(cwd, "a", "labels-bom.csv"));
    const plain = await readFile(join(cwd, "a", "labels-plain.csv"));
    expect(withBom.subarray(0, 3)).toEqual(BOM);
    expect(plain.subarray(0, 3)).not.toEqual(BOM);
    expect(withBom.subarray(3)).toEqual(plain);
    expect(new TextDecoder("utf-8").decode(withBom)).toBe(
      'n,label\r\n1,Sécurité\r\n2,"Überprüfung, Teil 2"\r\n',
    );
  });

  it("adds it with --csv-bom to any CSV, and the shipped people-facing reports ask for it", async () => {
    await cli(["report", "data", "--catalog", "team", "--out", "b", "--csv-bom"]);
    const flagged = await readFile(join(cwd, "b", "labels-plain.csv"));
    const plain = await readFile(join(cwd, "a", "labels-plain.csv"));
    expect(flagged).toEqual(Buffer.concat([BOM, plain]));
    await cli(["report", "completion-overview", "access", "--format", "csv", "--out", "c"]);
    const overview = await readFile(join(cwd, "c", `completion-overview-${today()}-access.csv`));
    const data = await readFile(join(cwd, "c", `access-${today()}.csv`));
    expect(overview.subarray(0, 3)).toEqual(BOM);
    expect(data.subarray(0, 3)).not.toEqual(BOM);
  });
});
