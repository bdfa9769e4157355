/**
 * The results file is made to be opened in a spreadsheet, as the file it answers was: it starts
 * with a UTF-8 byte-order mark (without one Excel reads UTF-8 as its ANSI code page, and
 * "München" shows as "MÃ¼nchen") and separates its fields by the input's delimiter (a sheet saved
 * with ";" where "," is the decimal mark opens with ";" again, not with every field in column A).
 * Against the simulator over real HTTP.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(79);
});
afterAll(async () => {
  await fx.close();
});

it("answers a semicolon CSV with a semicolon results file that starts with a byte-order mark", async () => {
  const [first, second] = fx.sim.data.list("grp").map((g) => g.grp_id as number);
  const path = join(fx.dir, "gruppen.csv");
  const lines = ["grp_id;grp_description", `${first};"München; Büro"`, `${second};Köln`];
  await writeFile(path, `\uFEFF${lines.join("\r\n")}\r\n`);
  const run = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
  expect(run.code, run.stderr).toBe(0);
  const results = await readFile(`${path}.results.csv`, "utf8");
  expect(results.split("\r\n").slice(0, 3)).toEqual([
    "\uFEFFgrp_id;grp_description;outcome;error;record_id",
    `${first};"München; Büro";applied;;${first}`,
    `${second};Köln;applied;;${second}`,
  ]);
});

it("keeps commas for a comma CSV, with the byte-order mark", async () => {
  const id = fx.sim.data.list("grp")[2]?.grp_id as number;
  const path = await csvFile(fx.dir, "groups.csv", [
    "grp_id,grp_description",
    `${id},"Sales, Nord"`,
  ]);
  const run = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
  expect(run.code, run.stderr).toBe(0);
  const results = await readFile(`${path}.results.csv`, "utf8");
  expect(results.split("\r\n").slice(0, 2)).toEqual([
    "\uFEFFgrp_id,grp_description,outcome,error,record_id",
    `${id},"Sales, Nord",applied,,${id}`,
  ]);
});
