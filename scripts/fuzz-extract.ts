/**
 * Randomized trials of the extract against the simulated portal with random faults, settings and
 * flows (test/fuzz/). Each trial is drawn from its seed; a failing one is logged with its seed and
 * settings, and replayed with `--seed N --trials 1`.
 *
 *   node --import ./test/helpers/register-ts.mjs scripts/fuzz-extract.ts [--trials N]
 *        [--seed FIRST] [--minutes M] [--log FILE]
 *        [--override JSON]
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runTrial } from "../test/fuzz/run-trial.js";
import { describeTrial, drawTrial, type TrialSettings } from "../test/fuzz/trial-settings.js";

const { values } = parseArgs({
  options: {
    trials: { type: "string", default: "1000000" },
    seed: { type: "string", default: String(Date.now() % 1_000_000) },
    minutes: { type: "string", default: "10" },
    log: { type: "string", default: "fuzz-extract.log" },
    // JSON merged over each drawn trial, to take a failing one apart: '{"faults":{"errorRate":0}}'
    override: { type: "string", default: "{}" },
  },
});

const deadline = Date.now() + Number(values.minutes) * 60_000;
const first = Number(values.seed);
let passed = 0;
let run = 0;
for (let seed = first; seed < first + Number(values.trials) && Date.now() < deadline; seed++) {
  const drawn = drawTrial(seed);
  const override = JSON.parse(values.override) as Partial<TrialSettings>;
  const settings = { ...drawn, ...override, faults: { ...drawn.faults, ...override.faults } };
  const dir = mkdtempSync(join(tmpdir(), "lms-fuzz-"));
  const began = Date.now();
  try {
    const outcome = await runTrial(settings, dir);
    run += 1;
    const line = `${describeTrial(settings)} ended=${JSON.stringify(outcome.ended)} (${Date.now() - began} ms)`;
    if (outcome.breaks.length === 0) {
      passed += 1;
      console.log(`pass ${line}`);
    } else {
      console.log(`FAIL ${line}\n  ${outcome.breaks.join("\n  ")}`);
      appendFileSync(values.log, `FAIL ${line}\n  ${outcome.breaks.join("\n  ")}\n`);
      writeFileSync(`${values.log}.${seed}`, outcome.log.join("\n"));
    }
  } catch (error) {
    run += 1;
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`ERROR ${describeTrial(settings)}\n  ${text}`);
    appendFileSync(values.log, `ERROR ${describeTrial(settings)}\n  ${text}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`${passed} of ${run} trials passed`);
