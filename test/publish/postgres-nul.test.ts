/**
 * The character NUL, which PostgreSQL stores neither in text nor in jsonb: a portal that sends
 * one must not stop every publish. In PostgreSQL U+FFFD stands in its place, the publish warns
 * where and how often, and the database keeps the value as it was. Against a real PostgreSQL
 * started for this test.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { collectingLogger } from "../api/scripted-portal.js";
import { tempDir } from "../helpers/temp-dir.js";
import { useBiServer } from "./helpers/bi-server.js";
import { filledDatabase, firstRow } from "./helpers/filled-db.js";

const PASSWORD = "nul-pw";
const installed = postgresInstalled();

const postgres = useBiServer(PASSWORD, installed);

/** Publishes `db` into `schema` of the test's server; answers the publish's log lines. */
async function publishInto(db: Parameters<typeof publishPostgres>[0], dir: string, schema: string) {
  const passwordFile = join(dir, "pg-password");
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  const logger = collectingLogger();
  await publishPostgres(db, {
    settings: await pgSettings(postgres.current.url, { LMS_PG_PASSWORD_FILE: passwordFile }),
    schema,
    logger,
  });
  return logger;
}

describe.skipIf(!installed)("NUL characters published to PostgreSQL", () => {
  test("stand as U+FFFD in text and jsonb, with a warning per column; the database keeps them", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "nul");
    const connection = await db.connect();
    await connection.run(
      "UPDATE grp SET grp_name = 'a' || chr(0) || 'b' || chr(0) WHERE grp_id = 1",
    );
    await connection.run("UPDATE grp SET grp_name = chr(0) WHERE grp_id = 2");
    // Two escapes in a row, and the text "\u0000" (an escaped backslash) that must stay as it is.
    const extra = '{"k\\u0000":"x\\u0000\\u0000y","text":"\\\\u0000"}';
    await connection.run("UPDATE take SET _extra = $1 WHERE take_id = 1", [extra]);
    connection.closeSync();

    const logger = await publishInto(db, dir, "nul");

    const bi = await postgres.current.server.admin("bi");
    try {
      const names = await bi.query(
        "SELECT grp_id, grp_name FROM nul.grp WHERE grp_id IN (1, 2) ORDER BY 1",
      );
      expect(names.rows.map((r) => r.grp_name)).toEqual(["a\uFFFDb\uFFFD", "\uFFFD"]);
      const json = await bi.query("SELECT _extra FROM nul.take WHERE take_id = 1");
      expect(json.rows[0]._extra).toEqual({ "k\uFFFD": "x\uFFFD\uFFFDy", text: "\\u0000" });
      const untouched = await bi.query(
        "SELECT count(*)::int AS n FROM nul.grp WHERE grp_name LIKE '%\uFFFD%'",
      );
      expect(untouched.rows[0].n).toBe(2);
    } finally {
      await bi.end();
    }

    const warned = logger.lines.filter((line) => line.level === "warn");
    expect(warned.map((line) => line.fields)).toEqual([
      { schema: "nul", table: "grp", column: "grp_name", values: 2 },
      { schema: "nul", table: "take", column: "_extra", values: 1 },
    ]);
    expect(warned[0]?.message).toMatch(
      /^grp\.grp_name: 2 values hold the character NUL, which PostgreSQL cannot store; U\+FFFD stands in its place there/,
    );
    expect(await firstRow(db, "SELECT grp_name FROM grp WHERE grp_id = 1")).toEqual(["a\0b\0"]);
    db.close();
  });

  test("a JSON value holding the text \\u0000, which is no NUL, arrives as it is, without a warning", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "no-nul");
    const connection = await db.connect();
    const extra = '{"path":"C:\\\\u0000","twice":"\\\\\\\\u0000"}';
    await connection.run("UPDATE take SET _extra = $1 WHERE take_id = 1", [extra]);
    connection.closeSync();

    const logger = await publishInto(db, dir, "no_nul");
    db.close();

    const bi = await postgres.current.server.admin("bi");
    try {
      const json = await bi.query("SELECT _extra FROM no_nul.take WHERE take_id = 1");
      expect(json.rows[0]._extra).toEqual({ path: "C:\\u0000", twice: "\\\\u0000" });
    } finally {
      await bi.end();
    }
    expect(logger.lines.filter((line) => line.level === "warn")).toEqual([]);
  });
});
