/**
 * `npm run bench`: the extractor, the exports, `sql`, the HTML report, split mail, publishing, the roster
 * import and apply, each figure as a ratio to a floor measured in the same run. `BENCH_SCALE=small` runs a
 * reduced version (a quick check that the bench works).
 */
import { benchApply } from "./apply-bench.js";
import { benchExports } from "./exports-bench.js";
import { benchExtract } from "./extract-bench.js";
import { benchHtml } from "./html-bench.js";
import { benchMail } from "./mail-bench.js";
import { benchPace, paceTable } from "./pace-bench.js";
import { benchPublish } from "./publish-bench.js";
import { benchRoster } from "./roster-bench.js";
import { benchSql } from "./sql-bench.js";

const small = process.env.BENCH_SCALE === "small";
const log = (line: string) => process.stdout.write(`${line}\n`);
const pass = (ok: boolean) => (ok ? "ok" : "MISSED");

log(`# lms-export benchmark (${small ? "small" : "full"} scale), node ${process.version}\n`);
log("## extract");
const extract = await benchExtract({
  users200k: small ? 1_000 : 10_000,
  users2m: small ? 10_000 : 100_000,
  // The same portal as the first figure: at 20 ms a request, it is latency-bound by design.
  latencyUsers: small ? 1_000 : 10_000,
  rounds: small ? 1 : 5,
  log,
});
log("");
log("| measure | value | target |");
log("| --- | --- | --- |");
log(
  `| pipeline ÷ fetch-and-parse floor, ${extract.takes200k.toLocaleString("en")} takes, 0 ms latency | ${extract.cpuRatio.toFixed(2)} (${(extract.pipelineMs / 1000).toFixed(1)} s ÷ ${(extract.floorMs / 1000).toFixed(1)} s) | ≤ 1.25 ${pass(extract.cpuRatio <= 1.25)} |`,
);
log(
  `| wall ÷ (requests × latency ÷ concurrency), ${extract.latencyMs} ms latency | ${extract.latencyRatio.toFixed(2)} (${(extract.latencyWallMs / 1000).toFixed(1)} s ÷ ${(extract.latencyIdealMs / 1000).toFixed(1)} s, ${extract.latencyRequests} requests) | ≤ 1.15 ${pass(extract.latencyRatio <= 1.15)} |`,
);
log(
  `| the same, the extractor fetching and parsing only (nothing stored) | ${(extract.latencyFetchOnlyMs / extract.latencyIdealMs).toFixed(2)} (${(extract.latencyFetchOnlyMs / 1000).toFixed(1)} s) | reference |`,
);
log(
  `| the same, a bare undici loop of as many requests (what the simulator and machine allow) | ${(extract.latencyBareMs / extract.latencyIdealMs).toFixed(2)} (${(extract.latencyBareMs / 1000).toFixed(1)} s) | reference |`,
);
log(
  `| peak RSS at ${extract.takes200k.toLocaleString("en")} / ${extract.takes2m.toLocaleString("en")} takes | ${extract.rss200kMb.toFixed(0)} MB / ${extract.rss2mMb.toFixed(0)} MB (ratio ${extract.rssRatio.toFixed(2)}) | < 300 MB at 2M ${pass(extract.rss2mMb < 300)} |`,
);
log(
  `| the same two, DuckDB's allocator keeping freed pages (\`DUCKDB_JE_MALLOC_CONF=dirty_decay_ms:1000,muzzy_decay_ms:1000\`) | ${(extract.keepPagesMs / extract.floorMs).toFixed(2)} (${(extract.keepPagesMs / 1000).toFixed(1)} s); ${extract.keepPages200kMb.toFixed(0)} MB / ${extract.keepPages2mMb.toFixed(0)} MB | reference |`,
);
log(
  `| a fresh page's first touch on this machine (what returning freed pages costs) | ${extract.pageFaultUs.toFixed(2)} µs | reference |`,
);
log(
  `| requests ÷ minimum the plan needs | ${extract.requests} ÷ ${extract.minimumRequests} = ${(extract.requests / extract.minimumRequests).toFixed(3)} | 1.000 ${pass(extract.requests === extract.minimumRequests)} |`,
);
log("\n## pace (portals of limited capacity, --concurrency auto)");
const pace = await benchPace({ capacities: small ? [4] : [4, 16, 64], log });
log("");
for (const line of paceTable(pace)) log(line);
log("\n## exports");
await benchExports({ rows: small ? 100_000 : 1_000_000, print: log });
log("\n## sql (a result printed as CSV, JSON and a table)");
await benchSql({ rows: small ? 100_000 : 1_000_000, print: log });
log("\n## html report");
await benchHtml({ complianceRows: small ? 20_000 : 200_000, print: log });
log("\n## split mail");
await benchMail({ users: small ? 500 : 2000, print: log });
log("\n## split mail, a server answering after 50 ms");
await benchMail({ users: small ? 500 : 2000, delayMs: 50, print: log });
log("\n## publish");
await benchPublish({ takes: small ? 200_000 : 2_000_000, log });
log("\n## roster import");
await benchRoster({ rows: small ? 20_000 : 100_000, print: log });
log("\n## apply");
await benchApply({ rows: small ? 200 : 1_000, print: log });
