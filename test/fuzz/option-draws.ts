/**
 * The extract options a trial may add to its flow: `--only` (a subset of the resources),
 * `--since` (an explicit cursor), `--rate` (requests per second) and `--all-portals` (several
 * simulated portals from one config file). They are drawn from a generator of their own, derived
 * from the seed, so the settings a seed drew before these options existed stay as they were.
 */
import type { RunExtractOptions } from "../../src/extract/extract.js";
import { EXTRACTED, type ExtractedName } from "../../src/resources/registry.js";
import { deriveSeed, Rng } from "../../src/simulator/prng.js";

/** Several portals run by one `extract --all-portals`. */
export interface PortalsDraw {
  /** How many portals the config file names. */
  readonly count: number;
  /** The last portal's simulator takes another key: its run fails alone. */
  readonly refused: boolean;
  /** `--portals-at-once`. */
  readonly atOnce: number;
}

export interface OptionDraws {
  /** `--only`: undefined extracts every resource. */
  readonly only?: readonly ExtractedName[] | undefined;
  /** `--since` as ISO 8601, on incremental flows only (it implies incremental). */
  readonly since?: string | undefined;
  /** `--rate`, requests per second. */
  readonly rate?: number | undefined;
  readonly portals?: PortalsDraw | undefined;
  /**
   * Incremental flows: groups and access records edited between the calm run and the measured
   * one, more than the lookback (then BETWEEN_LOOKBACK_MS) after the calm run and before the
   * measured one, so that only the right cursor of each resource brings them.
   */
  readonly editsBetween?: number | undefined;
}

/** The lookback of a trial with edits between its runs. */
export const BETWEEN_LOOKBACK_MS = 1100;

/** Days before the data's reference day, a moment after every record, and one far ahead. */
function drawSince(rng: Rng, now: Date): string {
  const kind = rng.int(0, 5);
  if (kind === 0) return "2030-01-01T00:00:00Z";
  if (kind === 1) return new Date(now.getTime() + 86_400_000).toISOString();
  return new Date(now.getTime() - rng.int(0, 400) * 86_400_000).toISOString();
}

function drawOnly(rng: Rng): ExtractedName[] {
  const chosen = EXTRACTED.filter(() => rng.chance(0.35));
  return chosen.length > 0
    ? chosen
    : [EXTRACTED[rng.int(0, EXTRACTED.length - 1)] as string as ExtractedName];
}

export function drawOptions(seed: number, flow: string, now: Date): OptionDraws {
  const rng = new Rng(deriveSeed(seed, 0x0b7));
  const only = rng.chance(0.2) ? drawOnly(rng) : undefined;
  const since = flow.includes("incremental") && rng.chance(0.35) ? drawSince(rng, now) : undefined;
  const rate = rng.chance(0.2) ? rng.int(40, 250) : undefined;
  const manyPortals = !flow.startsWith("resume-") && rng.chance(0.18);
  const portals = manyPortals
    ? { count: rng.int(2, 3), refused: rng.chance(0.3), atOnce: rng.int(1, 3) }
    : undefined;
  const between = flow.includes("incremental") && !portals && rng.chance(0.5);
  const editsBetween = between ? rng.int(1, 12) : undefined;
  return { only, since, rate, portals, editsBetween };
}

/** The options in a few words, for the trial's log line. */
export function describeOptions(o: OptionDraws): string {
  const words: string[] = [];
  if (o.only) words.push(`only=${o.only.join(",")}`);
  if (o.since) words.push(`since=${o.since}`);
  if (o.rate) words.push(`rate=${o.rate}`);
  if (o.portals) {
    const { count, refused, atOnce } = o.portals;
    words.push(`portals=${count}${refused ? "+refused" : ""} atOnce=${atOnce}`);
  }
  if (o.editsBetween) words.push(`editsBetween=${o.editsBetween}`);
  return words.join(" ");
}

/** What the trial asks of every measured run besides its mode: `--only` and `--since`. */
export function asked(t: OptionDraws): Pick<RunExtractOptions, "only" | "since"> {
  return {
    ...(t.only ? { only: t.only } : {}),
    ...(t.since ? { since: new Date(t.since) } : {}),
  };
}

/** The same as command-line flags, with `--rate`, for a run of the CLI. */
export function askedFlags(t: OptionDraws): string[] {
  const flags = t.only ? ["--only", t.only.join(",")] : [];
  if (t.since) flags.push("--since", t.since);
  if (t.rate) flags.push("--rate", String(t.rate));
  return flags;
}
