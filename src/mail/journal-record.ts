/**
 * One line of the mailing journal (mailing-journal.ts): a message's key and what became of it.
 * A message delivered to some of its recipients and refused for others also names the refused
 * ones, by their place among the message's recipients: the journal holds no address, and a run
 * that resumes must still say whom the message did not reach, as the run that sent it would have.
 */

/** What the journal records of a message; "sending" alone: the run died while it was under way. */
export type Status = "sending" | "sent" | "failed" | "unknown";

/** A message's last record. */
export interface JournalRecord {
  status: Status;
  /** For a message sent: the places, from 0, of its recipients the server refused. */
  refused: readonly number[];
}

// A line cut short by a kill is not a record: it must end where a record ends.
const LINE = /^(sending|sent|failed|unknown) (\S+)(?: refused=(\d+(?:,\d+)*))?$/;

/** The key and record of `line`, or undefined when it is none (cut short, or of another kind). */
export function parseRecord(line: string): [string, JournalRecord] | undefined {
  const match = LINE.exec(line);
  if (match === null) return undefined;
  const refused = match[3] === undefined ? [] : match[3].split(",").map(Number);
  return [match[2] as string, { status: match[1] as Status, refused }];
}

/** The line recording `record` of the message `key`. */
export function recordLine(key: string, record: JournalRecord): string {
  const refused = record.refused.length === 0 ? "" : ` refused=${record.refused.join(",")}`;
  return `${record.status} ${key}${refused}`;
}

/** The places among `recipients` of those of `refused` (both normalised); unknown ones left out. */
export function placesOf(recipients: readonly string[], refused: readonly string[]): number[] {
  const places = refused.map((address) => recipients.indexOf(address));
  return [...new Set(places.filter((place) => place >= 0))].sort((a, b) => a - b);
}
