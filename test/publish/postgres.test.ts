/**
 * `publish --postgres` against a real PostgreSQL 15 started for these tests: types, exact text
 * round trips, the swap in one transaction, a server connection killed mid-COPY, and the password
 * never taken from argv nor shown.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type PgServer, postgresInstalled } from "../../src/bench/temp-postgres.js";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import type { LmsDatabase } from "../../src/load/database.js";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { PUBLISHED_TABLES } from "../../src/publish/published-tables.js";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { stderrText } from "../helpers/stderr-text.js";
import { tempDir } from "../helpers/temp-dir.js";
import { startBiServer } from "./helpers/bi-server.js";
import { FIXTURE_ROWS, filledDatabase, tableCounts } from "./helpers/filled-db.js";
import { counts, duringTakeCopy, publishedThenGrown } from "./helpers/mid-copy.js";

const PASSWORD = "s3cret:pässword\\with'quote";
const installed = postgresInstalled();
if (!installed) {
  console.warn(
    "PostgreSQL server binaries not found under /usr/lib/postgresql/<version>/bin (apt-get install postgresql): publish --postgres tests skipped",
  );
}

let server: PgServer;
let admin: pg.Client;
let url: string;

beforeAll(async () => {
  if (!installed) return;
  ({ server, admin, url } = await startBiServer(PASSWORD));
}, 120_000);

afterAll(async () => {
  await admin?.end().catch(() => undefined);
  await server?.stop();
});

/** Strings that break naive COPY encoders, and a NULL beside an empty string. */
const TRICKY: (string | null)[] = [
  "tab\there",
  "line\nbreak",
  "carriage\rreturn",
  "back\\slash and \\N and \\t",
  `quotes ' and "`,
  "Zoë 日本語 🎉",
  "",
  null,
  "\\.",
];

async function trickyDatabase(dir: string): Promise<LmsDatabase> {
  const db = await filledDatabase(dir, "tricky");
  const connection = await db.connect();
  await connection.run(`ALTER TABLE "user" ADD COLUMN department VARCHAR`);
  await connection.run(`DELETE FROM "user"`);
  for (const [i, text] of TRICKY.entries()) {
    await connection.run(`INSERT INTO "user" (user_id, email, department) VALUES ($1, $2, $3)`, [
      i + 1,
      text,
      text === null ? "none" : `dept ${text}`,
    ]);
  }
  await connection.run(
    `UPDATE take SET _extra = json_object('note', 'a\tb\\nc"d', 'n', 1.5), take_started_date = TIMESTAMP '2026-03-01 12:34:56.789012' WHERE take_id = 1`,
  );
  connection.closeSync();
  return db;
}

async function bi(): Promise<pg.Client> {
  return server.admin("bi");
}

async function settings(env: Record<string, string> = {}) {
  const dir = await tempDir();
  const file = join(dir, "pg-password");
  await writeFile(file, `${PASSWORD}\n`, { mode: 0o600 });
  return pgSettings(url, { LMS_PG_PASSWORD_FILE: file, ...env });
}

describe.skipIf(!installed)("publish --postgres", () => {
  test("types and every tricky value arrive exactly, over a password-authenticated role", async () => {
    const dir = await tempDir();
    const db = await trickyDatabase(dir);
    const result = await publishPostgres(db, { settings: await settings() });
    expect(result.schema).toBe("lms");
    const client = await bi();
    try {
      expect(await counts(client, "lms")).toEqual(await tableCounts(db, PUBLISHED_TABLES));
      const types = await client.query(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_schema = 'lms' AND (table_name, column_name) IN
           (('take','take_id'), ('take','take_started_date'), ('take','_extra'), ('take','take_status'),
            ('_runs','options'), ('user','department'), ('user_grp','user_grp_group_admin'))
         ORDER BY 1, 2`,
      );
      expect(types.rows.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}`)).toEqual([
        "_runs.options jsonb",
        "take._extra jsonb",
        "take.take_id bigint",
        "take.take_started_date timestamp with time zone",
        "take.take_status text",
        "user.department text",
        "user_grp.user_grp_group_admin bigint",
      ]);
      const users = await client.query(`SELECT email, department FROM lms."user" ORDER BY user_id`);
      expect(users.rows.map((r) => r.email)).toEqual(TRICKY);
      expect(users.rows[7].department).toBe("none");
      const take = await client.query(
        `SELECT _extra, to_char(take_started_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS started
         FROM lms.take WHERE take_id = 1`,
      );
      expect(take.rows[0]._extra).toEqual({ note: 'a\tb\\nc"d', n: 1.5 });
      expect(take.rows[0].started).toBe("2026-03-01 12:34:56.789012");
      const nulls = await client.query(
        "SELECT take_status, _extra FROM lms.take WHERE take_id = 2",
      );
      expect(nulls.rows[0]).toEqual({ take_status: null, _extra: null });
    } finally {
      await client.end();
    }
  });

  test("a second publish replaces the tables; one killed mid-COPY leaves the first intact", async () => {
    const { db, firstCounts } = await publishedThenGrown(await settings(), "twice", "bi_tables");
    const failing = expect(
      publishPostgres(db, { settings: await settings(), schema: "bi_tables" }),
    ).rejects.toThrow(/publishing to PostgreSQL .* failed: .*as they were/);
    // Kill the publishing connection from a second one while it copies the large table.
    const killed = await duringTakeCopy(await bi(), async (pid, admin) => {
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    });
    await failing;
    expect(killed).toBe(true);
    const client = await bi();
    try {
      expect(await counts(client, "bi_tables")).toEqual(firstCounts);
      const schemas = await client.query(
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'bi_tables%' ORDER BY 1",
      );
      expect(schemas.rows.map((r) => r.nspname)).toEqual(["bi_tables"]);
      // The tables being filled were never committed: none is left beside the published ones.
      const tables = await client.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'bi_tables' ORDER BY 1",
      );
      expect(tables.rows.map((r) => r.tablename)).toEqual([...PUBLISHED_TABLES].sort());

      const again = await publishPostgres(db, { settings: await settings(), schema: "bi_tables" });
      expect(again.tables.find((t) => t.name === "take")?.rows).toBe(300 * 1001);
      expect((await counts(client, "bi_tables")).take).toBe(300 * 1001);
    } finally {
      await client.end();
    }
  });

  test("a value the server refuses fails the publish naming its table and column", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "refused");
    const first = await publishPostgres(db, { settings: await settings(), schema: "bi_refused" });
    const connection = await db.connect();
    // DuckDB's dates reach back past 290,000 BC; PostgreSQL's stop at 4713 BC and it refuses this one.
    await connection.run(
      "UPDATE take SET take_started_date = TIMESTAMP '5000-06-01 (BC) 00:00:00' WHERE take_id = 1",
    );
    connection.closeSync();
    await expect(
      publishPostgres(db, { settings: await settings(), schema: "bi_refused" }),
    ).rejects.toThrow(
      /failed: copying take\.take_started_date: .*out of range.*; its tables are as they were$/,
    );
    const client = await bi();
    try {
      const firstCounts = Object.fromEntries(first.tables.map((t) => [t.name, t.rows]));
      expect(await counts(client, "bi_refused")).toEqual(firstCounts);
    } finally {
      await client.end();
    }
  });

  test("Ctrl-C mid-COPY drops the connection and leaves the previous tables", async () => {
    const { db, firstCounts } = await publishedThenGrown(await settings(), "abort", "aborted");
    const controller = new AbortController();
    const failing = expect(
      publishPostgres(db, {
        settings: await settings(),
        schema: "aborted",
        signal: controller.signal,
      }),
    ).rejects.toThrow("interrupted");
    expect(
      await duringTakeCopy(await bi(), () =>
        controller.abort(new LmsExportError("interrupted", "interrupted")),
      ),
    ).toBe(true);
    await failing;
    const client = await bi();
    try {
      expect(await counts(client, "aborted")).toEqual(firstCounts);
    } finally {
      await client.end();
    }
  });

  test("a publishing process stopped by SIGINT mid-COPY exits 130, leaves the previous tables and says so", async () => {
    const { db, dir, firstCounts } = await publishedThenGrown(
      await settings(),
      "signal",
      "signalled",
    );
    db.close();
    const file = join(dir, "pg-password");
    await writeFile(file, PASSWORD, { mode: 0o600 });
    const child = spawnCli(
      ["publish", "--db", "signal.duckdb", "--postgres", url, "--schema", "signalled"],
      { cwd: dir, env: { LMS_PG_PASSWORD_FILE: file, LMS_LOG_FORMAT: "json" } },
    );
    const output = collect(child);
    const signalled = await duringTakeCopy(
      await bi(),
      () => {
        child.kill("SIGINT");
      },
      () => child.exitCode === null,
    );
    const result = await output;
    expect(signalled).toBe(true);
    // Stopped by SIGINT: 130, as a shell reports it.
    expect({
      code: result.code,
      signal: result.signal,
      stderr: stderrText(result.stderr),
    }).toMatchObject({
      code: 130,
      signal: null,
      stderr: expect.stringContaining(
        `lms-export: publish interrupted before it took effect: PostgreSQL ${url} is as before; run the same publish again\n`,
      ),
    });
    expect(result.stderr).not.toContain(PASSWORD);
    const client = await bi();
    try {
      expect(await counts(client, "signalled")).toEqual(firstCounts);
    } finally {
      await client.end();
    }
  });

  test("the password comes from a file, the environment or PGPASSFILE, never the URL", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "auth", { grp: 3, _runs: 1 });
    const inUrl = pgSettings(
      url.replace("publisher@", `publisher:${encodeURIComponent(PASSWORD)}@`),
      {},
    );
    await expect(inUrl).rejects.toMatchObject({ code: "bad-input" });
    await expect(inUrl).rejects.toThrow("contains a password; remove it and put the password");
    // libpq also reads secrets from the query string: refused in any case, never repeated.
    for (const query of [
      "?password=hunter2",
      "?sslmode=disable&PassWord=hunter2",
      "?sslpassword=hunter2",
      "?oauth_client_secret=hunter2",
      "?pass%77ord=hunter2",
    ]) {
      const inQuery = pgSettings(`${url}${query}`, { PGPASSWORD: PASSWORD });
      await expect(inQuery, query).rejects.toMatchObject({ code: "bad-input" });
      await expect(inQuery, query).rejects.toThrow(
        /password in its query string .*; remove it and put the password in a file named by LMS_PG_PASSWORD_FILE/,
      );
      await expect(inQuery, query).rejects.not.toThrow("hunter2");
    }
    // Only what is read is shown: no other parameter, no fragment.
    const shown = await pgSettings(`${url}?sslmode=disable&application_name=x-y#frag`, {});
    expect(shown.shown).toBe(`${url}?sslmode=disable`);

    // A schema of its own: lms holds the tricky database's tables, with a column this one lacks.
    const schema = "passwords";
    await publishPostgres(db, {
      settings: await pgSettings(url, { PGPASSWORD: PASSWORD }),
      schema,
    });
    const pgpass = join(dir, "pgpass");
    const escaped = PASSWORD.replaceAll("\\", "\\\\").replaceAll(":", "\\:");
    await writeFile(
      pgpass,
      `# comment\nother:*:*:*:wrong\n127.0.0.1:${server.port}:bi:publisher:${escaped}\n`,
    );
    await publishPostgres(db, { settings: await pgSettings(url, { PGPASSFILE: pgpass }), schema });

    const wrong = publishPostgres(db, {
      settings: await pgSettings(url, { PGPASSWORD: "wrong-one" }),
    });
    await expect(wrong).rejects.toMatchObject({ code: "publish-failed" });
    await expect(wrong).rejects.toThrow("password authentication failed");
    const none = publishPostgres(db, {
      settings: await pgSettings(url, { PGPASSFILE: join(dir, "no") }),
    });
    await expect(none).rejects.toThrow("PostgreSQL asks for a password");
  });

  test("from the command line: the password is in no output, bad input is exit 2", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "cli", { ...FIXTURE_ROWS, _runs: 1 });
    db.close();
    const file = join(dir, "pg-password");
    await writeFile(file, PASSWORD);
    let out = "";
    const sink = new Writable({
      write(chunk, _encoding, done) {
        out += String(chunk);
        done();
      },
    });
    const ctx = (env: Record<string, string>): CliContext => ({
      stdout: sink,
      stderr: sink,
      env: { LMS_LOG_FORMAT: "json", ...env },
      cwd: dir,
      signal: new AbortController().signal,
    });
    const args = ["publish", "--db", "cli.duckdb", "--postgres", url, "--schema", "from_cli"];
    expect(await main(args, ctx({ LMS_PG_PASSWORD_FILE: file }))).toBe(0);
    expect(out).toContain("from_cli.take 300 rows");
    expect(out).toContain("from_cli._runs 1 row\n");
    expect(await main(args, ctx({ PGPASSWORD: "not-it" }))).toBe(1);
    expect(out).toContain("password authentication failed");
    const withPassword = url.replace("publisher@", "publisher:hunter2@");
    expect(await main([...args.slice(0, 3), "--postgres", withPassword], ctx({}))).toBe(2);
    // A password in the query string is refused before anything is opened, with one line
    // saying where it goes, even when it is the right one.
    for (const query of [`?password=${encodeURIComponent(PASSWORD)}`, "?sslpassword=hunter3"]) {
      const before = out.length;
      const inQuery = [...args.slice(0, 3), "--postgres", `${url}${query}`];
      expect(await main(inQuery, ctx({ PGPASSWORD: "not-it" }))).toBe(2);
      const printed = out.slice(before).trimEnd().split("\n");
      expect(printed).toHaveLength(1);
      expect(printed[0]).toContain("put the password in a file named by LMS_PG_PASSWORD_FILE");
    }
    const badSchema = [...args.slice(0, 5), "--schema", "no-dash"];
    expect(await main(badSchema, ctx({ LMS_PG_PASSWORD_FILE: file }))).toBe(2);
    expect(out).not.toContain(PASSWORD);
    expect(out).not.toContain("hunter2");
    expect(out).not.toContain("hunter3");
    expect(out).not.toContain(encodeURIComponent(PASSWORD));
    expect(out).not.toContain("not-it");
  });
});
