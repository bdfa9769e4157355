/**
 * The package as a library: imported by name (`import { createClient } from "lms-export"`) from
 * another project, which resolves it through package.json `exports` into dist/ (built by
 * `npm run build`; npm test does it first). The other project is a temporary folder whose
 * node_modules/lms-export links to this repository.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";

const run = promisify(execFile);
const KEY = "library-key-7d20";

let dir: string;
let sim: RunningSimulator;
beforeAll(async () => {
  if (!existsSync(join(PROJECT_ROOT, "dist", "index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does it first)");
  }
  dir = await mkdtemp(join(tmpdir(), "lms-library-"));
  await mkdir(join(dir, "node_modules"));
  await symlink(PROJECT_ROOT, join(dir, "node_modules", "lms-export"), "dir");
  await writeFile(join(dir, "package.json"), '{ "name": "consumer", "type": "module" }\n');
  sim = await startSimulator({ apiKey: KEY, users: 50, takesPerUser: 1, seed: 4 });
});
afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

const SCRIPT = `
import * as lms from "lms-export";
const { createClient, NotFoundError, ApiError } = lms;
const client = createClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.KEY, concurrency: 4 });
const groups = await client.listGroups({ start: 0, limit: 5 });
const first = groups.result[0];
const edited = await client.editGroup(first.grp_id, { grp_description: "set through the library" });
let missing = "none";
try { await client.editGroup(999999999, { grp_description: "x" }); }
catch (error) { missing = error instanceof NotFoundError && error instanceof ApiError ? "NotFoundError" : String(error); }
await client.close();
console.log(JSON.stringify({
  exports: Object.keys(lms).sort(),
  total: groups.total,
  id: first.grp_id,
  description: edited.grp_description,
  missing,
  failure: ((e) => ({ name: e.name, code: e.code, isError: e instanceof Error }))(
    new lms.LmsExportError("not-found", "no such report"),
  ),
}));
`;

describe("the client as a library", () => {
  it("imports createClient by the package name and talks to the portal", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", SCRIPT], {
      cwd: dir,
      env: { ...process.env, BASE_URL: sim.baseUrl, KEY },
    });
    const answer = JSON.parse(stdout.trim()) as Record<string, unknown>;
    expect(answer.total).toBe(sim.data.count("grp"));
    expect(answer.description).toBe("set through the library");
    expect(sim.data.get("grp", answer.id as number)?.grp_description).toBe(
      "set through the library",
    );
    expect(answer.missing).toBe("NotFoundError");
    // Only the public surface: the client, its error classes and the stages' typed failure
    // (types leave no runtime trace).
    expect(answer.exports).toEqual([
      "ApiError",
      "AuthError",
      "EnvelopeError",
      "FAILURE_CODES",
      "HttpError",
      "LmsExportError",
      "NetworkError",
      "NotFoundError",
      "RetryBudgetError",
      "createClient",
    ]);
    expect(answer.failure).toEqual({ name: "LmsExportError", code: "not-found", isError: true });
  });

  it("a deep import outside the exports map is refused", async () => {
    const deep = `await import("lms-export/dist/cli/main.js")`;
    await expect(
      run(process.execPath, ["--input-type=module", "-e", deep], { cwd: dir }),
    ).rejects.toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it("a CommonJS consumer is told at type-check time that the package is ESM only", async () => {
    // Types found under `require` would pass tsc and fail at run time (ERR_PACKAGE_PATH_NOT_EXPORTED).
    const file = join(dir, "use-cjs.cts");
    await writeFile(file, `import { createClient } from "lms-export";\nvoid createClient;\n`);
    await expect(typeCheck([file])).rejects.toMatchObject({
      stdout: expect.stringContaining("Cannot find module 'lms-export'"),
    });
  });

  it("the declarations type the records (tsc over a consumer file and the README example)", async () => {
    const readme = await readFile(join(PROJECT_ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## The client as a library"));
    const example = /```text\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toContain('from "lms-export"');
    const fromReadme = join(dir, "readme-example.ts");
    await writeFile(fromReadme, example ?? "");
    const file = join(dir, "use.ts");
    await writeFile(
      file,
      `import { createClient, type Group } from "lms-export";
const client = createClient({ baseUrl: "https://lms.example.com/api-v2", apiKey: "k" });
const g: Promise<Group> = client.editGroup(1, { grp_name: "x" });
// @ts-expect-error grp_id is not writable
client.editGroup(1, { grp_id: 2 });
void g;
`,
    );
    // The @ts-expect-error line makes tsc fail unless the body type refuses a read-only field.
    await typeCheck([file, fromReadme]);
  });
});

/** tsc --noEmit, strict, nodenext, over `files` of the consumer project; rejects on an error. */
function typeCheck(files: readonly string[]) {
  const tsc = join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
  const types = join(PROJECT_ROOT, "node_modules", "@types");
  const args = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext"];
  return run(
    process.execPath,
    [
      tsc,
      ...args,
      ...["--target", "es2022", "--skipLibCheck", "--typeRoots", types, "--types", "node"],
      ...files,
    ],
    { cwd: dir },
  );
}
