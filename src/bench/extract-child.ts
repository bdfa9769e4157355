/**
 * One measured extract, run as its own process so its peak RSS is its own. Reads its settings as
 * JSON from argv[2] and prints one JSON line with the outcome.
 */
import { type ExtractResult, runExtract } from "../extract/extract.js";
import { silentLogger } from "../log/logger.js";

export interface ExtractChildInput {
  baseUrl: string;
  db: string;
  dryRun: boolean;
  concurrency: number | "auto";
  maxConcurrency?: number;
  pageSize: number;
}

export interface ExtractChildOutput {
  wallMs: number;
  /** CPU time of the whole process (all threads), user + system. */
  cpuMs: number;
  requests: number;
  retries: number;
  maxRssMb: number;
  records: Record<string, number>;
  pace: ExtractResult["pace"];
}

const input = JSON.parse(process.argv[2] ?? "{}") as ExtractChildInput;
const started = performance.now();
// By path, as the CLI runs it: staged in the side file, merged into the database at the end.
const result = await runExtract({
  db: input.db,
  clientOptions: {
    baseUrl: input.baseUrl,
    apiKey: "demo-key",
    concurrency: input.concurrency,
    ...(input.maxConcurrency === undefined ? {} : { maxConcurrency: input.maxConcurrency }),
    pageSize: input.pageSize,
  },
  mode: "full",
  logger: silentLogger,
  dryRun: input.dryRun,
});
const wallMs = performance.now() - started;
const cpu = process.cpuUsage();
const output: ExtractChildOutput = {
  wallMs,
  cpuMs: (cpu.user + cpu.system) / 1000,
  requests: result.requests,
  retries: result.retries,
  // resourceUsage().maxRSS is in kilobytes: the peak of the whole process.
  maxRssMb: process.resourceUsage().maxRSS / 1024,
  records: Object.fromEntries(
    [...result.resources].map(([name, outcome]) => [name, outcome.records]),
  ),
  pace: result.pace,
};
process.stdout.write(`${JSON.stringify(output)}\n`);
