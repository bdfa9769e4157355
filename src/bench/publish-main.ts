/**
 * `npm run bench:publish` (also part of `npm run bench`): the publish figures alone.
 * `BENCH_SCALE=small` publishes 200,000 takes instead of 2,000,000.
 */
import { benchPublish } from "./publish-bench.js";

const small = process.env.BENCH_SCALE === "small";
const log = (line: string) => process.stdout.write(`${line}\n`);
log(
  `# lms-export publish benchmark (${small ? "small" : "full"} scale), node ${process.version}\n`,
);
await benchPublish({ takes: small ? 200_000 : 2_000_000, log });
