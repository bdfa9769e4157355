/**
 * One PostgreSQL schema holds one portal's tables: publishing a second portal into it is refused
 * with its tables untouched, where it used to replace the first portal's silently. Against a real
 * PostgreSQL started for these tests, through the command line (`publish --portal`).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type PgServer, postgresInstalled } from "../../src/bench/temp-postgres.js";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { startBiServer } from "./helpers/bi-server.js";
import { FIXTURE_ROWS, filledDatabase } from "./helpers/filled-db.js";

const PASSWORD = "portals-pw";
const installed = postgresInstalled();

let server: PgServer;
let admin: pg.Client;
let url: string;
const dir = tempDirForFile("lms-pg-portals-");
let passwordFile: string;

beforeAll(async () => {
  if (!installed) return;
  ({ server, admin, url } = await startBiServer(PASSWORD));
  passwordFile = join(dir, "pg-password");
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  // Two portals' databases told apart by their size: north has 300 takes, south 120.
  (await filledDatabase(dir, "north")).close();
  (await filledDatabase(dir, "south", { ...FIXTURE_ROWS, take: 120 })).close();
}, 120_000);

afterAll(async () => {
  await admin?.end().catch(() => undefined);
  await server?.stop();
});

/** The CLI in `dir` with `args`; its exit code and everything it wrote. */
async function cli(args: readonly string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk);
      done();
    },
  });
  const ctx: CliContext = {
    stdout: sink,
    stderr: sink,
    env: { LMS_PG_PASSWORD_FILE: passwordFile },
    cwd: dir,
    signal: new AbortController().signal,
  };
  return { code: await main([...args], ctx), out };
}

/** `publish --postgres URL --portal NAME --db NAME.duckdb` plus `extra`. */
function publish(portal: string, ...extra: string[]): Promise<{ code: number; out: string }> {
  return cli([
    "publish",
    "--postgres",
    url,
    "--portal",
    portal,
    "--db",
    `${portal}.duckdb`,
    ...extra,
  ]);
}

async function takes(schema: string): Promise<number> {
  const bi = await server.admin("bi");
  try {
    return (await bi.query(`SELECT count(*)::int AS n FROM "${schema}".take`)).rows[0].n;
  } finally {
    await bi.end();
  }
}

describe.skipIf(!installed)("portals in PostgreSQL", () => {
  test("a schema holding one portal refuses another, untouched; each gets a schema of its own", async () => {
    expect((await publish("north")).code).toBe(0);
    expect(await takes("lms")).toBe(300);

    const refused = await publish("south");
    expect(refused.code).toBe(1);
    const lines = refused.out.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("schema lms holds portal north's tables");
    expect(lines[0]).toContain("--schema lms_south");
    expect(await takes("lms")).toBe(300);

    expect((await publish("south", "--schema", "lms_south")).code).toBe(0);
    expect(await takes("lms_south")).toBe(120);
    // The same portal again replaces its own tables.
    expect((await publish("north")).code).toBe(0);
    expect(await takes("lms")).toBe(300);
  });

  test("clearing the mark, as the message says, lets another portal replace the tables", async () => {
    expect((await publish("north", "--schema", "shared")).code).toBe(0);
    expect((await publish("south", "--schema", "shared")).code).toBe(1);
    const bi = await server.admin("bi");
    await bi.query("COMMENT ON TABLE shared._runs IS NULL");
    await bi.end();
    expect((await publish("south", "--schema", "shared")).code).toBe(0);
    expect(await takes("shared")).toBe(120);
    expect((await publish("north", "--schema", "shared")).code).toBe(1);
  });

  test("roster columns named like the lake's folders, or longer than PostgreSQL keeps, arrive apart and whole", async () => {
    const long = "Manager responsible for the yearly safety training of the team";
    await writeFile(
      join(dir, "wide.csv"),
      `User ID,Portal,${long} (primary),${long} (backup)\n1,EMEA intranet,a@example.com,b@example.com\n`,
    );
    const imported = await cli(["roster", "import", "wide.csv", "--db", "north.duckdb"]);
    expect(imported.code, imported.out).toBe(0);
    const published = await publish("north", "--schema", "wide");
    expect(published.code, published.out).toBe(0);
    const bi = await server.admin("bi");
    try {
      const row = (await bi.query('SELECT * FROM wide."user" WHERE user_id = 1')).rows[0];
      const names = Object.keys(row).filter((name) => name.startsWith("manager_"));
      expect(names).toHaveLength(2);
      expect(row.portal_2).toBe("EMEA intranet");
      expect(names.map((name) => row[name]).sort()).toEqual(["a@example.com", "b@example.com"]);
    } finally {
      await bi.end();
    }
  });
});
