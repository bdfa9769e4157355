/**
 * The publish benchmark: 2M takes (and the small tables beside them) published to the lake and to
 * PostgreSQL, each as a ratio to the bare tool doing the same copy in the same run: DuckDB's own
 * `COPY` to one Parquet file, and `psql \copy` of the same rows from a CSV file.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { type LmsDatabase, openDatabase } from "../load/database.js";
import { publishLake } from "../publish/lake/publish-lake.js";
import { pgSettings } from "../publish/postgres/connection-settings.js";
import { publishPostgres } from "../publish/postgres/publish-postgres.js";
import { fillSyntheticRows } from "./synthetic-tables.js";
import { postgresInstalled, startPgServer } from "./temp-postgres.js";

export interface PublishBenchOptions {
  takes: number;
  log: (line: string) => void;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

const rate = (rows: number, ms: number) => Math.round(rows / (ms / 1000)).toLocaleString("en");

export async function benchPublish(options: PublishBenchOptions): Promise<void> {
  const { takes, log } = options;
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-publish-"));
  const db = await openDatabase(join(dir, "bench.duckdb"));
  try {
    const connection = await db.connect();
    await fillSyntheticRows(connection, {
      take: takes,
      grp: 1000,
      user_grp: 10_000,
      user: 5000,
      _runs: 1,
    });
    const rows = Number(
      (await connection.runAndReadAll("SELECT count(*) FROM take")).getRowsJS()[0]![0],
    );
    await benchLake(db, connection, { dir, rows, log });
    if (!postgresInstalled()) {
      log("PostgreSQL binaries not found: the PostgreSQL figures are skipped");
      return;
    }
    await benchPostgres(db, connection, { dir, rows, log });
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where a figure's files go, the take table's row count, and where lines are printed. */
interface BenchPlace {
  dir: string;
  rows: number;
  log: (line: string) => void;
}

/** The lake against DuckDB's own `COPY` of the take table to one Parquet file. */
async function benchLake(
  db: LmsDatabase,
  connection: DuckDBConnection,
  { dir, rows, log }: BenchPlace,
): Promise<void> {
  const bareParquet = await timed(() =>
    connection.run(
      `COPY take TO '${join(dir, "bare.parquet")}' (FORMAT parquet, COMPRESSION zstd)`,
    ),
  );
  const lake = await timed(() => publishLake(db, { lakeDir: join(dir, "lake"), portal: "bench" }));
  const lakeTake = lake.value.partitions.find((p) => p.table === "take")!.rows;
  log(
    `bare DuckDB COPY take → one Parquet file   ${rows} rows  ${(bareParquet.ms / 1000).toFixed(2)} s  ${rate(rows, bareParquet.ms)} rows/s`,
  );
  log(
    `publish --lake (every table)              ${lakeTake} takes ${(lake.ms / 1000).toFixed(2)} s  ${rate(lakeTake, lake.ms)} takes/s`,
  );
  log(`lake ÷ bare COPY: ${(lake.ms / bareParquet.ms).toFixed(2)}`);
}

/** PostgreSQL against `psql \copy` of the same takes from a CSV file DuckDB wrote. */
async function benchPostgres(
  db: LmsDatabase,
  connection: DuckDBConnection,
  { dir, rows, log }: BenchPlace,
): Promise<void> {
  const server = await startPgServer();
  try {
    const admin = await server.admin();
    await admin.query("CREATE DATABASE bench");
    await admin.end();
    const csv = join(dir, "take.csv");
    const bareCsv = await timed(() =>
      connection.run(`COPY take TO '${csv}' (FORMAT csv, HEADER false)`),
    );
    const create = `CREATE TABLE bare_take (take_id BIGINT, take_product_id BIGINT, take_user_id BIGINT,
      take_status TEXT, take_score BIGINT, take_started_date TIMESTAMPTZ, take_completed_date TIMESTAMPTZ,
      take_created_date TIMESTAMPTZ, take_updated_date TIMESTAMPTZ, _extra JSONB)`;
    await server.psql("bench", ["-c", create]);
    const bareCopy = await timed(() =>
      server.psql("bench", ["-c", `\\copy bare_take FROM '${csv}' WITH (FORMAT csv)`]),
    );
    const settings = await pgSettings(
      `postgres://postgres@127.0.0.1:${server.port}/bench?host=${encodeURIComponent(server.socketDir)}`,
      {},
    );
    const published = await timed(() => publishPostgres(db, { settings }));
    const pgTake = published.value.tables.find((t) => t.name === "take")!.rows;
    log(
      `bare psql \\copy of take from CSV          ${rows} rows  ${(bareCopy.ms / 1000).toFixed(2)} s  ${rate(rows, bareCopy.ms)} rows/s`,
    );
    log(
      `publish --postgres (every table)          ${pgTake} takes ${(published.ms / 1000).toFixed(2)} s  ${rate(pgTake, published.ms)} takes/s`,
    );
    log(`postgres ÷ bare psql \\copy: ${(published.ms / bareCopy.ms).toFixed(2)}`);
    log(
      `postgres ÷ (bare DuckDB COPY to CSV ${(bareCsv.ms / 1000).toFixed(2)} s + psql \\copy): ${(published.ms / (bareCsv.ms + bareCopy.ms)).toFixed(2)}`,
    );
  } finally {
    await server.stop();
  }
}
