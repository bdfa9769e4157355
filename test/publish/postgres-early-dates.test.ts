/**
 * Dates before the year 1 in UTC, which a portal sends as the "unset" date of some systems
 * (`0001-01-01T00:00:00+01:00` is 31 December of the year before 1 in UTC) and the extract keeps
 * as it reads them. PostgreSQL has no year 0: the publish must write them as BC years rather than
 * fail every publish on them. Against a real PostgreSQL started for this test.
 */
import { describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { parseDateTimeMicros } from "../../src/encode/parse-datetime.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { tempDir } from "../helpers/temp-dir.js";
import { biSettings, useBiServer } from "./helpers/bi-server.js";
import { filledDatabase } from "./helpers/filled-db.js";

const PASSWORD = "early-dates-pw";
const installed = postgresInstalled();
const postgres = useBiServer(PASSWORD, installed);

/** What the portal sent for product_access_id 1, 2, 3, 4, and how PostgreSQL shows it in UTC. */
const SENT: readonly (readonly [string, string])[] = [
  ["0001-01-01T00:00:00+01:00", "0001-12-31 23:00:00 BC"],
  ["0000-01-01T00:00:00+14:00", "0002-12-31 10:00:00 BC"],
  ["0001-01-01T00:00:00Z", "0001-01-01 00:00:00 AD"],
  ["2026-11-29T10:00:00.123456Z", "2026-11-29 10:00:00 AD"],
];

describe.skipIf(!installed)("dates before the year 1 published to PostgreSQL", () => {
  test("arrive as the same instants, BC, instead of failing the publish", async () => {
    const db = await filledDatabase(await tempDir(), "early");
    const connection = await db.connect();
    for (const [index, [text]] of SENT.entries()) {
      await connection.run(
        "UPDATE product_access SET product_access_expired_date = make_timestamp($1::BIGINT) WHERE product_access_id = $2::BIGINT",
        [String(parseDateTimeMicros(text)), String(index + 1)],
      );
    }
    connection.closeSync();

    await publishPostgres(db, {
      settings: await biSettings(postgres.current, PASSWORD),
      schema: "early",
    });
    db.close();

    const bi = await postgres.current.server.admin("bi");
    try {
      const published = await bi.query(
        `SET TIME ZONE 'UTC'; SELECT product_access_id AS id,
           (extract(epoch FROM product_access_expired_date) * 1000000)::bigint::text AS micros,
           to_char(product_access_expired_date, 'YYYY-MM-DD HH24:MI:SS BC') AS shown
         FROM early.product_access WHERE product_access_id BETWEEN 1 AND 4 ORDER BY 1`,
      );
      const rows = (Array.isArray(published) ? published[1] : published).rows;
      expect(rows).toEqual(
        SENT.map(([text, shown], index) => ({
          id: String(index + 1),
          micros: String(parseDateTimeMicros(text)),
          shown,
        })),
      );
    } finally {
      await bi.end();
    }
  });
});
