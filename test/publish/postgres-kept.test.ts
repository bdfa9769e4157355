/**
 * What a database administrator adds to the published tables survives the next publish: indexes,
 * constraints and comments are made again on the replacements, and one that no longer fits (a
 * unique index the new rows break) is named in a warning instead of failing the publish. A column
 * an administrator added is not dropped, nor a column retyped: the publish is refused, naming it.
 * Row-level security is made again too, a policy naming another published table included, and a
 * policy that cannot be fails the publish. And a schema that was never
 * published into, holding an application's own `user` table, is refused rather than dropped.
 * Against a real PostgreSQL 15.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type PgServer, postgresInstalled, startPgServer } from "../../src/bench/temp-postgres.js";
import type { LmsDatabase } from "../../src/load/database.js";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { recordColumns } from "../../src/roster/column-record.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "./helpers/filled-db.js";

const PASSWORD = "writer-pw";
const installed = postgresInstalled();
let server: PgServer;

beforeAll(async () => {
  if (!installed) return;
  server = await startPgServer();
  await server.psql("postgres", [
    ...["-c", `CREATE ROLE lms_writer LOGIN PASSWORD '${PASSWORD}'`],
    ...["-c", "CREATE DATABASE analytics OWNER lms_writer"],
  ]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

async function publish(db: LmsDatabase, dir: string, schema: string) {
  const file = join(dir, "pg-password");
  await writeFile(file, `${PASSWORD}\n`, { mode: 0o600 });
  const url = `postgres://lms_writer@127.0.0.1:${server.port}/analytics`;
  const lines: string[] = [];
  const settings = await pgSettings(url, { LMS_PG_PASSWORD_FILE: file });
  await publishPostgres(db, { settings, schema, logger: recordingLogger(lines) });
  return lines.filter((l) => l.startsWith("warn ")).map((l) => l.slice("warn ".length));
}

const sql = (...statements: string[]) =>
  server.psql(
    "analytics",
    statements.flatMap((s) => ["-c", `SET ROLE lms_writer; ${s}`]),
  );
const query = async (text: string) =>
  (await server.psql("analytics", ["-At", "-c", text])).trim().split("\n");

/** A database of its own, published into `schema`, which was published without a warning. */
async function publishedSchema(schema: string): Promise<{ dir: string; db: LmsDatabase }> {
  const dir = await tempDir();
  const db = await filledDatabase(dir, schema);
  expect(await publish(db, dir, schema)).toEqual([]);
  return { dir, db };
}

/** Makes `role`, which may read `schema`.take and .user, and turns take's row-level security on. */
async function takeUnderRowSecurity(schema: string, role: string): Promise<void> {
  await server.psql("analytics", ["-c", `CREATE ROLE ${role}`]);
  await sql(
    `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
    `GRANT SELECT ON ${schema}.take, ${schema}.user TO ${role}`,
    `ALTER TABLE ${schema}.take ENABLE ROW LEVEL SECURITY`,
  );
}

/**
 * A filled database whose user has a roster column department, as a roster import makes it,
 * published into `schema` without a warning.
 */
async function publishedWithDepartment(schema: string): Promise<{ dir: string; db: LmsDatabase }> {
  const dir = await tempDir();
  const db = await filledDatabase(dir, "earlier");
  const connection = await db.connect();
  await connection.run(`ALTER TABLE "user" ADD COLUMN department VARCHAR`);
  await recordColumns(connection, [{ asked: "department", occurrence: 1, column: "department" }]);
  connection.closeSync();
  expect(await publish(db, dir, schema)).toEqual([]);
  return { dir, db };
}

/** Runs `statement` on `db` in a connection of its own. */
async function runOn(db: LmsDatabase, statement: string): Promise<void> {
  const connection = await db.connect();
  await connection.run(statement);
  connection.closeSync();
}

/** The comment of `schema`.user.department; an empty line when the column is gone. */
const departmentComment = (schema: string) =>
  query(
    `SELECT col_description(attrelid, attnum) FROM pg_attribute WHERE attrelid = '${schema}.user'::regclass AND attname = 'department'`,
  );

describe.skipIf(!installed)("publish --postgres and what an administrator added", () => {
  test("keeps indexes, constraints and comments, and names one it cannot make again", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "kept");
    expect(await publish(db, dir, "lms")).toEqual([]);
    await sql(
      "CREATE INDEX take_user_idx ON lms.take (take_user_id)",
      "ALTER TABLE lms.grp ADD CONSTRAINT grp_pk PRIMARY KEY (grp_id)",
      "ALTER TABLE lms.take ADD CONSTRAINT score_range CHECK (take_score IS NULL OR take_score >= -1e9)",
      "COMMENT ON TABLE lms.take IS 'attempts at a product'",
      "COMMENT ON COLUMN lms.take.take_score IS 'percent'",
      // A unique index one row satisfies; the next publish brings the other rows back.
      "DELETE FROM lms.take WHERE take_id <> (SELECT min(take_id) FROM lms.take)",
      "CREATE UNIQUE INDEX take_just_one ON lms.take ((true))",
    );
    const warnings = await publish(db, dir, "lms");

    expect(
      await query(
        "SELECT indexname FROM pg_indexes WHERE schemaname = 'lms' AND tablename IN ('take', 'grp') ORDER BY 1",
      ),
    ).toEqual(["grp_pk", "take_user_idx"]);
    expect(
      await query(
        "SELECT conname || ' ' || contype::text FROM pg_constraint WHERE conrelid IN ('lms.take'::regclass, 'lms.grp'::regclass) ORDER BY 1",
      ),
    ).toEqual(["grp_pk p", "score_range c"]);
    expect(
      await query(
        "SELECT obj_description('lms.take'::regclass, 'pg_class') || ' / ' || col_description('lms.take'::regclass, (SELECT attnum FROM pg_attribute WHERE attrelid = 'lms.take'::regclass AND attname = 'take_score'))",
      ),
    ).toEqual(["attempts at a product / percent"]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^lms\.take: index take_just_one was not made again on the new table \(could not create unique index "take_just_one"\)/,
      ),
    ]);
  });

  test("refuses a schema never published into that holds tables of the published names", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "foreign");
    await sql(
      "CREATE SCHEMA app",
      'CREATE TABLE app."user" (id serial PRIMARY KEY, login text)',
      "INSERT INTO app.\"user\" (login) VALUES ('admin'), ('bob')",
      "CREATE TABLE app.product (sku text PRIMARY KEY)",
      "CREATE TABLE app.notes (body text)",
    );
    await expect(publish(db, dir, "app")).rejects.toThrow(
      "schema app holds app.product, app.user, which no lms-export publish made (it has no _runs table), and publishing there would drop them: publish into a schema of its own (--schema lms, the default, or another name), or drop or rename those tables first",
    );
    expect(await query('SELECT count(*) FROM app."user"')).toEqual(["2"]);
    expect(
      await query("SELECT tablename FROM pg_tables WHERE schemaname = 'app' ORDER BY 1"),
    ).toEqual(["notes", "product", "user"]);
    // A schema of the application's with no such names takes the published tables beside its own.
    await sql("CREATE SCHEMA shared", "CREATE TABLE shared.notes (body text)");
    expect(await publish(db, dir, "shared")).toEqual([]);
    expect(await query("SELECT count(*) FROM pg_tables WHERE schemaname = 'shared'")).toEqual([
      "11",
    ]);
  });

  test("a column an administrator added is not dropped: the publish is refused, naming it", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "added");
    expect(await publish(db, dir, "added")).toEqual([]);
    await sql("ALTER TABLE added.take ADD COLUMN admin_note text DEFAULT 'keep me'");
    const failure = publish(db, dir, "added");
    await expect(failure).rejects.toMatchObject({ code: "refused" });
    await expect(failure).rejects.toThrow(
      /^added\.take has a column admin_note that the database's take has not: a publish replaces the table from the database and would drop it with its data\. Move the data to a table of its own, or drop the column \(ALTER TABLE added\.take DROP COLUMN admin_note\), then publish again; nothing was changed$/,
    );
    expect(await query("SELECT count(*) FROM added.take WHERE admin_note = 'keep me'")).toEqual([
      "300",
    ]);
  });

  test("a roster column the database no longer has goes from user with the next publish", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "roster");
    const connection = await db.connect();
    await connection.run(`ALTER TABLE "user" ADD COLUMN department VARCHAR`);
    await recordColumns(connection, [{ asked: "department", occurrence: 1, column: "department" }]);
    expect(await publish(db, dir, "roster")).toEqual([]);
    // A replacing roster import whose file has no such header drops the column.
    await connection.run(`ALTER TABLE "user" DROP COLUMN department`);
    connection.closeSync();
    expect(await publish(db, dir, "roster")).toEqual([]);
    expect(
      await query(
        "SELECT count(*) FROM pg_attribute WHERE attrelid = 'roster.user'::regclass AND attname = 'department'",
      ),
    ).toEqual(["0"]);
  });

  test("a roster column an earlier database published goes with the publish of one built anew", async () => {
    const { dir, db: earlier } = await publishedWithDepartment("rebuilt");
    expect(await publish(earlier, dir, "rebuilt")).toEqual([]);
    expect(await departmentComment("rebuilt")).toEqual([
      "lms-export roster column: a column of the roster file, made by each publish while the roster has it",
    ]);
    // A new extract and no roster yet: a database that never had the column.
    const anew = await filledDatabase(dir, "anew");
    expect(await publish(anew, dir, "rebuilt")).toEqual([]);
    expect(await departmentComment("rebuilt")).toEqual([""]);
  });

  test("a roster column published without its mark goes only while the database lists it", async () => {
    const { dir, db: earlier } = await publishedWithDepartment("unmarked");
    // As a publish before the marks left it.
    await sql("COMMENT ON COLUMN unmarked.user.department IS NULL");
    const anew = await filledDatabase(dir, "anew");
    await expect(publish(anew, dir, "unmarked")).rejects.toThrow(
      /^unmarked\.user has a column department that the database's user has not: /,
    );
    // A replacing roster import whose file has no such header drops the column.
    await runOn(earlier, `ALTER TABLE "user" DROP COLUMN department`);
    expect(await publish(earlier, dir, "unmarked")).toEqual([]);
    expect(await departmentComment("unmarked")).toEqual([""]);
  });

  test("a column the database types otherwise is not retyped: the publish is refused", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "retyped");
    expect(await publish(db, dir, "retyped")).toEqual([]);
    const connection = await db.connect();
    await connection.run("ALTER TABLE take ALTER take_score TYPE VARCHAR");
    connection.closeSync();
    const failure = publish(db, dir, "retyped");
    await expect(failure).rejects.toMatchObject({ code: "refused" });
    await expect(failure).rejects.toThrow(
      /^column retyped\.take\.take_score is VARCHAR in the database \(text in PostgreSQL\) but bigint in PostgreSQL; columns are never retyped, as queries on them would break: publish to a new --schema, or drop the table in PostgreSQL first \(DROP TABLE retyped\.take\); nothing was changed$/,
    );
    expect(
      await query(
        "SELECT data_type FROM information_schema.columns WHERE table_schema = 'retyped' AND table_name = 'take' AND column_name = 'take_score'",
      ),
    ).toEqual(["bigint"]);
  });

  test("row-level security and its policies are made again, or the publish fails", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "secured");
    const connection = await db.connect();
    await connection.run(`ALTER TABLE "user" ADD COLUMN department VARCHAR`);
    await recordColumns(connection, [{ asked: "department", occurrence: 1, column: "department" }]);
    expect(await publish(db, dir, "secured")).toEqual([]);
    await takeUnderRowSecurity("secured", "rls_reader");
    await sql(
      "ALTER TABLE secured.take FORCE ROW LEVEL SECURITY",
      "CREATE POLICY own ON secured.take FOR SELECT TO rls_reader USING (take_id % 3 = 0)",
      "CREATE POLICY odd ON secured.take AS RESTRICTIVE TO PUBLIC USING (take_id % 2 = 1) WITH CHECK (take_id > 0)",
    );
    // The count rls_reader sees (after psql's "SET").
    const seen = async () =>
      (await query("SET ROLE rls_reader; SELECT count(*) FROM secured.take")).slice(1);
    const policies = () =>
      query(
        "SELECT (SELECT relrowsecurity::text || relforcerowsecurity::text FROM pg_class WHERE oid = 'secured.take'::regclass) || ' ' || policyname || ' ' || permissive || ' ' || roles::text || ' ' || cmd || ' ' || coalesce(qual, '-') || ' ' || coalesce(with_check, '-') FROM pg_policies WHERE schemaname = 'secured' ORDER BY policyname",
      );
    // Rows whose take_id is an odd multiple of 3: 50 of the 300.
    expect(await seen()).toEqual(["50"]);
    const before = await policies();
    expect(before).toEqual([
      "truetrue odd RESTRICTIVE {public} ALL ((take_id % (2)::bigint) = 1) (take_id > 0)",
      "truetrue own PERMISSIVE {rls_reader} SELECT ((take_id % (3)::bigint) = 0) -",
    ]);
    expect(await publish(db, dir, "secured")).toEqual([]);
    expect(await seen()).toEqual(["50"]);
    expect(await policies()).toEqual(before);

    // A policy on a roster column the database no longer has cannot be made again.
    await sql(
      "ALTER TABLE secured.user ENABLE ROW LEVEL SECURITY",
      "CREATE POLICY hr ON secured.user FOR SELECT TO rls_reader USING (department = 'HR')",
    );
    await connection.run(`ALTER TABLE "user" DROP COLUMN department`);
    connection.closeSync();
    const failure = publish(db, dir, "secured");
    await expect(failure).rejects.toMatchObject({ code: "refused" });
    await expect(failure).rejects.toThrow(
      /^secured\.user: row-level security policy hr cannot be made again on the new table \(column "department" does not exist\), and a table is never published with less protection than it had: nothing was published, the tables are as they were; change the policy \(ALTER POLICY hr ON secured\.user …\) or drop it, then publish again$/,
    );
    expect(
      await query(
        "SELECT count(*) FROM pg_policies WHERE schemaname = 'secured' AND tablename = 'user'",
      ),
    ).toEqual(["1"]);
    expect(await query("SELECT count(department) FROM secured.user")).toEqual(["0"]);
  });

  test("a view on a published table stops the publish naming the view, and everything stays", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "viewed");
    expect(await publish(db, dir, "viewed")).toEqual([]);
    const before = await query("SELECT count(*) FROM viewed.take");
    await sql("CREATE VIEW public.v_take AS SELECT * FROM viewed.take");
    const failure = publish(db, dir, "viewed");
    await expect(failure).rejects.toThrow(
      /depend on them \(view v_take depends on table viewed\.take\): a publish replaces its tables, which PostgreSQL refuses while a view depends on one; drop that view before publishing and make it again after it/,
    );
    expect(await query("SELECT count(*) FROM public.v_take")).toEqual(before);
  });

  test("a policy on one published table naming another is made again at each publish, reading the new one", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "crossed");
    const connection = await db.connect();
    // The users whose takes take_manager may read: those whose email is the role's name.
    const manage = (ids: string) =>
      connection.run(
        `UPDATE "user" SET email = CASE WHEN user_id IN (${ids}) THEN 'take_manager' ELSE 'other' END`,
      );
    await manage("0, 4");
    expect(await publish(db, dir, "crossed")).toEqual([]);
    await takeUnderRowSecurity("crossed", "take_manager");
    await sql(
      `CREATE POLICY managed ON crossed.take FOR SELECT TO take_manager USING (take_user_id IN (SELECT user_id FROM crossed."user" WHERE email = current_user))`,
    );
    // The take_ids take_manager sees (after psql's "SET").
    const seen = async () =>
      (
        await query(
          "SET ROLE take_manager; SELECT string_agg(take_id::text, ',' ORDER BY take_id) FROM crossed.take",
        )
      ).slice(1);
    const policy = () =>
      query(
        "SELECT policyname || ' ' || roles::text || ' ' || cmd || ' ' || qual FROM pg_policies WHERE schemaname = 'crossed'",
      );
    expect(await seen()).toEqual(["0,4"]);
    const before = await policy();
    // Each publish's user decides: the policy reads the user table published with it.
    await manage("1");
    expect(await publish(db, dir, "crossed")).toEqual([]);
    expect(await seen()).toEqual(["1"]);
    await manage("3, 4");
    expect(await publish(db, dir, "crossed")).toEqual([]);
    expect(await seen()).toEqual(["3,4"]);
    connection.closeSync();
    expect(await policy()).toEqual(before);
  });

  test("a policy of a table of one's own naming a published table stops the publish, naming the policy", async () => {
    const { dir, db } = await publishedSchema("guarded");
    await sql(
      "CREATE TABLE public.notes (user_id bigint, note text)",
      "ALTER TABLE public.notes ENABLE ROW LEVEL SECURITY",
      `CREATE POLICY by_user ON public.notes USING (user_id IN (SELECT user_id FROM guarded."user"))`,
    );
    const failure = publish(db, dir, "guarded");
    await expect(failure).rejects.toThrow(
      /depend on them \(policy by_user on table notes depends on table guarded\."user"\): a publish replaces its tables, which PostgreSQL refuses while a policy depends on one; drop that policy before publishing and make it again after it; its tables are as they were$/,
    );
    expect(await query("SELECT count(*) FROM guarded.user")).toEqual(["6"]);
  });
});
