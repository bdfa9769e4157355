/**
 * The pace benchmark alone: `npm run build && node dist/bench/pace-main.js` (about two minutes).
 * `BENCH_SCALE=small` tries K = 4 only.
 */
import { benchPace, paceTable } from "./pace-bench.js";

const small = process.env.BENCH_SCALE === "small";
const log = (line: string) => process.stdout.write(`${line}\n`);

log(`# lms-export pace benchmark (${small ? "small" : "full"} scale), node ${process.version}\n`);
const figures = await benchPace({ capacities: small ? [4] : [4, 16, 64], log });
log("");
for (const line of paceTable(figures)) log(line);
