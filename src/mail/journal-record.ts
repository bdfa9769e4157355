/**
 * One line of the mailing journal (mailing-journal.ts): a message's key and what became of it.
 * A message delivered to some of its recipients and refused for others also names the refused
 * ones, by their place among the message's recipients, each with the codes the server refused it
 * with (reply-code.ts): `sent KEY refused=1:550:5.1.1,3:550`, or `smtputf8` for one never given
 * to a server without SMTPUTF8 (`4:smtputf8`). The journal holds no address nor a
 * reply's text, and a run that resumes must still say whom the message did not reach, and why,
 * as the run that sent it would have. A journal written before the codes were kept names the
 * places alone (`refused=1,3`), and is read as such.
 */

/** What the journal records of a message; "sending" alone: the run died while it was under way. */
export type Status = "sending" | "sent" | "failed" | "unknown";

/** A recipient the server refused: its place, from 0, among the message's recipients. */
export interface RefusedPlace {
  place: number;
  /**
   * The codes of the server's refusal, "550 5.1.1" or "550", or NO_SMTPUTF8 (reply-code.ts);
   * undefined when none is known.
   */
  code: string | undefined;
}

/** A message's last record. */
export interface JournalRecord {
  status: Status;
  /** For a message sent: its recipients the server refused, in the order of their places. */
  refused: readonly RefusedPlace[];
}

const PLACE = String.raw`\d+(?::\d{3}(?::\d\.\d{1,3}\.\d{1,3})?|:smtputf8)?`;
// A line cut short by a kill is not a record: it must end where a record ends.
const LINE = new RegExp(
  String.raw`^(sending|sent|failed|unknown) (\S+)(?: refused=(${PLACE}(?:,${PLACE})*))?$`,
);

/** The key and record of `line`, or undefined when it is none (cut short, or of another kind). */
export function parseRecord(line: string): [string, JournalRecord] | undefined {
  const match = LINE.exec(line);
  if (match === null) return undefined;
  const refused = match[3] === undefined ? [] : match[3].split(",").map(refusedPlace);
  return [match[2] as string, { status: match[1] as Status, refused }];
}

/** `3:550:5.1.1` read back; `3` of an older journal has no code. */
function refusedPlace(item: string): RefusedPlace {
  const [place, ...codes] = item.split(":");
  return { place: Number(place), code: codes.length === 0 ? undefined : codes.join(" ") };
}

// A code of another form would make the line one parseRecord does not read: its message lost.
const CODE = /^(?:\d{3}(?: \d\.\d{1,3}\.\d{1,3})?|smtputf8)$/;

/** The line recording `record` of the message `key`. */
export function recordLine(key: string, record: JournalRecord): string {
  const items = record.refused.map(({ place, code }) =>
    code === undefined || !CODE.test(code) ? `${place}` : `${place}:${code.replace(" ", ":")}`,
  );
  const refused = items.length === 0 ? "" : ` refused=${items.join(",")}`;
  return `${record.status} ${key}${refused}`;
}

/**
 * The places among `recipients` of those of `refused` (both normalised), each with its code
 * (`codes`, in the order of `refused`); unknown ones left out.
 */
export function placesOf(
  recipients: readonly string[],
  refused: readonly string[],
  codes: readonly (string | undefined)[],
): RefusedPlace[] {
  const places = new Map<number, string | undefined>();
  refused.forEach((address, index) => {
    const place = recipients.indexOf(address);
    if (place >= 0 && !places.has(place)) places.set(place, codes[index]);
  });
  return [...places].sort(([a], [b]) => a - b).map(([place, code]) => ({ place, code }));
}
