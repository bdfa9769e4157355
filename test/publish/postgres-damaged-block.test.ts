/**
 * A database file with a damaged block in the middle of a published table. DuckDB fails reading
 * that block, but @duckdb/node-api ends the streamed read as if the table had no more rows. So
 * `publish --postgres` copied the rows before the block, and then either failed on its next read
 * of DuckDB with a message naming neither the table nor the damage ("Current transaction is
 * aborted") or, for the last table published, committed it shortened and exited 0. Now the
 * publish fails naming the table and leaves PostgreSQL's tables as they were. Against a real
 * PostgreSQL started for this test.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { tempDir } from "../helpers/temp-dir.js";
import { useBiServer } from "./helpers/bi-server.js";
import { DAMAGED_CASES, damagedAfter } from "./helpers/damaged-block.js";
import { counts } from "./helpers/mid-copy.js";

const PASSWORD = "damaged-pw";
const installed = postgresInstalled();
const postgres = useBiServer(PASSWORD, installed);

describe.skipIf(!installed)("publish --postgres from a database with a damaged block", () => {
  test.each(DAMAGED_CASES)(
    "$table: fails naming the table, PostgreSQL keeps its tables",
    async (grown) => {
      const { table } = grown;
      const schema = `damaged${table}`;
      const dir = await tempDir();
      const passwordFile = join(dir, "pg-password");
      await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
      const settings = await pgSettings(postgres.current.url, {
        LMS_PG_PASSWORD_FILE: passwordFile,
      });
      const { damaged, first } = await damagedAfter(dir, grown, (db) =>
        publishPostgres(db, { settings, schema }),
      );
      try {
        const error = await publishPostgres(damaged, { settings, schema }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        const message = (error as Error).message;
        const read = new RegExp(
          `failed: reading ${table} from the database stopped after (\\d+) rows, .*; its tables are as they were$`,
        ).exec(message);
        expect(read, message).not.toBeNull();
        // Rows were read before the damaged block: the case this is about.
        expect(Number(read?.[1])).toBeGreaterThan(0);
      } finally {
        damaged.close();
      }

      const bi = await postgres.current.server.admin("bi");
      try {
        const firstCounts = Object.fromEntries(first.tables.map((t) => [t.name, t.rows]));
        expect(await counts(bi, schema)).toEqual(firstCounts);
        const left = await bi.query(
          "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename LIKE '%next%'",
          [schema],
        );
        expect(left.rows).toEqual([]);
      } finally {
        await bi.end();
      }
    },
  );
});
