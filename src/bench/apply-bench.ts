/**
 * Apply benchmark: `apply` of N access edits to a simulated portal answering each request after
 * 20 ms (in its own process), beside a bare loop of the same N edits through the client with the
 * same concurrency as the floor. The difference is what apply adds: reading and checking the
 * file, the diff against the database, recording every outcome, the results file.
 * Run: build, then `node dist/bench/apply-bench.js [ROWS]`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ClientOptions, createClient } from "../api/client.js";
import { executeApply, planApply } from "../apply/apply.js";
import { runExtract } from "../extract/extract.js";
import { openDatabase } from "../load/database.js";
import { silentLogger } from "../log/logger.js";
import { DEFAULT_API_KEY } from "../simulator/server.js";
import { spawnSimulator } from "./spawn-simulator.js";

const LATENCY_MS = 20;
const CONCURRENCY = 16;

export interface ApplyBench {
  rows: number;
  applyMs: number;
  bareMs: number;
  idealMs: number;
}

async function bareEdits(options: ClientOptions, ids: readonly number[]): Promise<number> {
  const client = createClient(options);
  await client.authenticate();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as number;
      await client.editProductAccess(id, { product_access_expired_date: "2030-01-01T00:00:00Z" });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = performance.now() - started;
  await client.close();
  return ms;
}

async function accessIds(dbPath: string, options: ClientOptions, rows: number) {
  const db = await openDatabase(dbPath);
  try {
    await runExtract({
      db,
      clientOptions: options,
      mode: "full",
      only: ["product_access"],
      logger: silentLogger,
    });
    const connection = await db.connect();
    const reader = await connection.runAndReadAll(
      "SELECT product_access_id FROM product_access ORDER BY 1 LIMIT $rows",
      { rows },
    );
    return reader.getRows().map((row) => Number(row[0]));
  } finally {
    db.close();
  }
}

export async function benchApply(options: {
  rows: number;
  print: (line: string) => void;
}): Promise<ApplyBench> {
  const users = Math.ceil(options.rows / 2) + 100;
  const sim = await spawnSimulator([
    ...["--users", String(users), "--takes-per-user", "1"],
    ...["--latency", String(LATENCY_MS), "--seed", "3"],
  ]);
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-apply-"));
  try {
    const clientOptions = {
      baseUrl: sim.baseUrl,
      apiKey: DEFAULT_API_KEY,
      concurrency: CONCURRENCY,
    };
    const dbPath = join(dir, "lms.duckdb");
    const ids = await accessIds(dbPath, clientOptions, options.rows);
    const bareMs = await bareEdits(clientOptions, ids);
    const csv = join(dir, "changes.csv");
    // A date no record has yet, so that every row is a change to send.
    const lines = ids.map((id) => `${id},2031-01-01T00:00:00Z`);
    await writeFile(csv, `product_access_id,product_access_expired_date\n${lines.join("\n")}\n`);
    const db = await openDatabase(dbPath);
    const started = performance.now();
    let applied: number;
    try {
      const planned = await planApply(db, csv, "product_access.edit", { strict: false });
      const outcome = await executeApply(db, csv, planned, {
        clientOptions,
        concurrency: CONCURRENCY,
      });
      applied = outcome.applied;
    } finally {
      db.close();
    }
    if (applied !== ids.length) throw new Error(`apply sent ${applied} of ${ids.length} edits`);
    const applyMs = performance.now() - started;
    const result = {
      rows: ids.length,
      applyMs,
      bareMs,
      idealMs: (ids.length * LATENCY_MS) / CONCURRENCY,
    };
    const line = (name: string, ms: number) =>
      `${name.padEnd(30)} ${String(result.rows).padStart(6)} edits  ${(ms / 1000).toFixed(2)} s  ${((result.rows * 1000) / ms).toFixed(0).padStart(5)} edits/s`;
    options.print(line("apply (check, diff, record)", applyMs));
    options.print(line("bare client loop", bareMs));
    options.print(line("requests × latency ÷ concurrency", result.idealMs));
    const ratio = applyMs / bareMs;
    options.print(`apply / bare loop: ${ratio.toFixed(2)}x (target <= 1.25x)`);
    return result;
  } finally {
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = Number(process.argv[2] ?? 1000);
  await benchApply({ rows, print: (line) => process.stdout.write(`${line}\n`) });
}
