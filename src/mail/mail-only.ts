/**
 * What --mail-only picks among a run's messages. An address alone picks every message to it, to
 * it alone. One address can get two messages of a split report: its own share, when the data names
 * it, and the copy of the rows without an address, when it is also among the report's `to` or
 * `cc`. `ADDRESS:share` and `ADDRESS:unassigned` pick one of the two, so that sending again what
 * a run did not deliver never sends the other, delivered, one twice.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { addressItems, isMailAddress, notAnAddress } from "./address.js";

/** Which of a report's messages one is: the whole report, a recipient's share, the rest's copy. */
export type MessagePart = "whole" | "share" | "unassigned";

/** The parts an address of --mail-only may name after a colon. */
const NAMED_PARTS = ["share", "unassigned"] as const;

/** One item of --mail-only: an address, and the one part of a split report it picks, if any. */
export interface MailTarget {
  address: string;
  part: (typeof NAMED_PARTS)[number] | undefined;
}

/** The part of a message split by `scope` (undefined: a report sent whole). */
export function partOf(scope: { address: string | undefined } | undefined): MessagePart {
  if (scope === undefined) return "whole";
  return scope.address === undefined ? "unassigned" : "share";
}

/** `target` as --mail-only takes it. */
export function targetText(target: MailTarget): string {
  return target.part === undefined ? target.address : `${target.address}:${target.part}`;
}

/**
 * The items of --mail-only (comma-separated, or a list of such lists), normalised and without
 * repeats. Contract: a bad-input naming `source` and the first bad item; none at all is one too.
 */
export function parseMailTargets(values: string | readonly string[], source: string): MailTarget[] {
  const parts = addressItems(values, source);
  const targets = parts.map((part) => parseTarget(part, source));
  const seen = new Set<string>();
  return targets.filter((t) => !seen.has(targetText(t)) && seen.add(targetText(t)));
}

function parseTarget(text: string, source: string): MailTarget {
  // No address holds a colon (address.ts): the last one, if any, starts the part.
  const colon = text.lastIndexOf(":");
  const address = colon < 0 ? text : text.slice(0, colon);
  const part = colon < 0 ? undefined : text.slice(colon + 1);
  if (!isMailAddress(address)) throw notAnAddress(source, address);
  if (part !== undefined && !(NAMED_PARTS as readonly string[]).includes(part)) {
    throw new LmsExportError(
      "bad-input",
      `${source}: ${JSON.stringify(text)} names no part of a message: after an address, give :share (its own share of a split report) or :unassigned (its copy of the rows without an address), or nothing`,
    );
  }
  return { address, part: part as MailTarget["part"] };
}

/** Whether `target` picks the message `part` for `recipient`. */
function picks(target: MailTarget, recipient: string, part: MessagePart): boolean {
  return target.address === recipient && (target.part === undefined || target.part === part);
}

/**
 * The recipients of `recipients`, of a message that is `part` of its report, that the message is
 * sent to: those `only` picks, or all without it.
 */
export function envelopeOf(
  recipients: readonly string[],
  part: MessagePart,
  only?: readonly MailTarget[],
): string[] {
  if (only === undefined) return [...recipients];
  return recipients.filter((r) => only.some((target) => picks(target, r, part)));
}

/**
 * The items of --mail-only that send `recipients` of a message that is `part` of its report
 * again, and nothing else: an address of `twice` (one that gets two messages of the report) is
 * named with its part.
 */
export function targetsOf(
  recipients: readonly string[],
  part: MessagePart,
  twice: readonly string[],
): MailTarget[] {
  return recipients.map((address) => ({
    address,
    part: part !== "whole" && twice.includes(address) ? part : undefined,
  }));
}
