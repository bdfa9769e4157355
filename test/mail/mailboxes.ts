/**
 * What each mailbox got from a mailing of `team-list` and `team-chart` (the mail dataset): per
 * address, the reports whose message reached it, by the subject's title, in order.
 */
import type { Received } from "./smtp-fixture.js";

/** Per mailbox, the subjects' reports it got, in order. */
export function mailboxes(
  received: readonly Pick<Received, "to" | "parsed">[],
): Record<string, string[]> {
  const boxes: Record<string, string[]> = {};
  for (const message of received) {
    const report = String(message.parsed.subject).split(/ for | \(/)[0] ?? "";
    for (const to of message.to) {
      boxes[to] ??= [];
      boxes[to].push(report);
    }
  }
  return boxes;
}

/** Every mailbox once per report it is mailed: team-list and team-chart each sent whole once. */
export const ONCE_EACH = {
  "audit@example.com": ["Team list"],
  "compliance@example.com": ["Team list", "Team chart"],
  "north.lead@example.com": ["Team list", "Team chart"],
  "sales.lead@example.com": ["Team list", "Team chart"],
};
