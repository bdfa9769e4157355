/**
 * Throughput of the conversion and staging path for take-shaped rows (not a test: run it with
 * `node --import ./test/helpers/register-ts.mjs test/load/bench-load.ts [rows] [pageSize]`).
 *
 * Prints rows per second of wall time and of process CPU time for: JSON.parse of the pages (the
 * floor of the CPU path, for scale), toRecordBatch, and stagingWriter.append into a DuckDB file.
 * CPU time is the steadier figure on a shared machine.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordBatch } from "apache-arrow";
import { toRecordBatch } from "../../src/encode/to-record-batch.js";
import { stagingWriter } from "../../src/load/append-batch.js";
import { openDatabase } from "../../src/load/database.js";

const rows = Number(process.argv[2] ?? 1_000_000);
const pageSize = Number(process.argv[3] ?? 1000);
const statuses = ["in_progress", "completed", "failed"];

function page(first: number): string {
  const records = [];
  for (let id = first; id < first + pageSize; id++) {
    const date = new Date(Date.UTC(2025, 0, 1) + id * 60_000)
      .toISOString()
      .replace(".000Z", "+00:00");
    records.push({
      take_id: id,
      take_product_id: id % 500,
      take_user_id: id % 50_000,
      take_status: statuses[id % 3],
      take_score: id % 7 === 0 ? null : id % 100,
      take_started_date: date,
      take_completed_date: id % 3 === 1 ? date : null,
      take_created_date: date,
      take_updated_date: date,
    });
  }
  return JSON.stringify(records);
}

async function measure(label: string, work: () => Promise<void> | void): Promise<void> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await work();
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const rate = (ms: number) => ((rows / ms) * 1000).toFixed(0).padStart(9);
  console.log(
    `${label.padEnd(22)} wall ${wallMs.toFixed(0).padStart(6)} ms ${rate(wallMs)} rows/s   cpu ${cpuMs.toFixed(0).padStart(6)} ms ${rate(cpuMs)} rows/s`,
  );
}

const texts: string[] = [];
for (let first = 1; first <= rows; first += pageSize) texts.push(page(first));
const path = join(tmpdir(), `lms-bench-${process.pid}.duckdb`);

for (let round = 1; round <= 3; round++) {
  console.log(`round ${round}: ${rows} rows in pages of ${pageSize}`);
  let parsed: unknown[][] = [];
  await measure("JSON.parse", () => {
    parsed = texts.map((text) => JSON.parse(text));
  });
  const batches: RecordBatch[] = [];
  await measure("toRecordBatch", () => {
    for (const records of parsed) {
      const { batch } = toRecordBatch("take", records);
      if (batch) batches.push(batch);
    }
  });
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
  const db = await openDatabase(path);
  const writer = await stagingWriter(await db.connect(), "take");
  await measure("stagingWriter.append", async () => {
    for (const batch of batches) await writer.append(batch);
    await writer.close();
  });
  db.close();
}
rmSync(path, { force: true });
rmSync(`${path}.wal`, { force: true });
