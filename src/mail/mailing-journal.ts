/**
 * The mailing journal: a file in the output folder, one per set of reports mailed, that says
 * which of a mailing's messages went, written before and after each one is handed to the server.
 * A run killed outright (kill -9, the OOM killer, a reboot) leaves it behind, so the same command
 * run again sends only what the killed run did not; a mailing of the same reports already under
 * way is refused instead of mailing everyone a second time. It holds no address, password or
 * body: a message is named by a hash of its report, part and recipients.
 */
import { createHash } from "node:crypto";
import { fsyncSync, writeSync } from "node:fs";
import { type FileHandle, link, open, readFile, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Logger } from "../log/logger.js";
import { reportDay } from "../report/report-day.js";
import { normaliseAddress } from "./address.js";
import {
  type JournalRecord,
  parseRecord,
  placesOf,
  type RefusedPlace,
  recordLine,
} from "./journal-record.js";
import { envelopeOf, type MailTarget, partOf } from "./mail-only.js";
import type { Message, PlannedReport } from "./mail-plan.js";
import { processStartMs } from "./process-start.js";
import { refusalText } from "./reply-code.js";

/** The journal's first line. */
interface Header {
  pid: number;
  started: string;
  reports: string[];
  day: string;
  fingerprint: string;
  messages: number;
}

/** What a message skipped on resuming answers in place of its sending (see mail-reports.ts). */
export interface EarlierOutcome {
  delivered: false;
  problem: string | undefined;
  undelivered: string[];
  unsure: string[];
  serverDown?: undefined;
}

/** What sending a message did, as far as the journal records it. */
interface Outcome {
  delivered: boolean;
  /** Normalised, as `Planned.recipients`: of a message delivered, those the server refused. */
  undelivered: readonly string[];
  /** Of a message delivered, the codes each of `undelivered` was refused with (reply-code.ts). */
  refusedCodes?: readonly (string | undefined)[];
  unsure: readonly string[];
}

interface Planned {
  key: string;
  label: string;
  /** The recipients as the message names them, and normalised, in the same order. */
  to: string[];
  recipients: string[];
}

/** The journals this process holds: its own PID is alive, but not a killed run's. */
const held = new Set<string>();

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/** "HH:MM" of an ISO time, as the clock of the machine shows it. */
const clock = (iso: string) => new Date(iso).toTimeString().slice(0, 5);

/**
 * Slack between the journal's start time (the command's clock when the mailing was planned) and
 * /proc's start time of its process, which counts in ticks from a boot time in whole seconds.
 */
const START_SLACK_MS = 2000;

/**
 * Whether the process `pid`, which wrote a journal at `started`, still runs (a process of another
 * user counts: it runs). One that started after the journal did holds the PID of a run that is
 * gone (a reboot, or PIDs come round again), and must not block every mailing after it.
 */
function alive(pid: number, started: string): boolean {
  if (pid === process.pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  const since = processStartMs(pid);
  const wrote = Date.parse(started);
  return since === undefined || Number.isNaN(wrote) || since <= wrote + START_SLACK_MS;
}

/** A journal file read back: its header (undefined if unreadable) and each message's last record. */
function parseJournal(text: string): {
  header: Header | undefined;
  status: Map<string, JournalRecord>;
} {
  const [first = "", ...lines] = text.split("\n");
  let header: Header | undefined;
  try {
    header = JSON.parse(first) as Header;
  } catch {
    header = undefined;
  }
  const status = new Map<string, JournalRecord>();
  for (const line of lines) {
    const record = parseRecord(line);
    if (record !== undefined) status.set(...record);
  }
  return { header, status };
}

/**
 * The server's answers to refused recipients, as far as the journal keeps them: `: 550 5.1.1`,
 * as a run that sent the message gives the answers themselves (`: 550 5.1.1 user unknown`).
 * Nothing from a journal that kept no code. `to`: the message's recipients, by place.
 */
function codesSaid(refused: readonly RefusedPlace[], to: readonly string[]): string {
  if (refused.every(({ code }) => code === undefined)) return "";
  return `: ${refused.map(({ place, code }) => refusalText(to[place] ?? "", code)).join("; ")}`;
}

/** The messages in order, each with its key, its log label and its normalised recipients. */
function plannedMessages(
  planned: readonly PlannedReport[],
  only: readonly MailTarget[] | undefined,
): Map<Message, Planned> {
  const messages = new Map<Message, Planned>();
  for (const { report, messages: list } of planned) {
    for (const message of list) {
      const part = partOf(message.scope);
      const to = envelopeOf([...message.to, ...message.cc], part, only);
      const recipients = to.map(normaliseAddress);
      const seed = `${report.job.name}\0${part}\0${recipients.join("\0")}`;
      const key = `${messages.size + 1}-${hash(seed).slice(0, 12)}`;
      const label = `${report.job.name} to ${to.join(", ")}`;
      messages.set(message, { key, label, to, recipients });
    }
  }
  return messages;
}

export interface JournalOptions {
  outDir: string;
  now: Date;
  logger: Logger;
  only?: readonly MailTarget[];
}

/** A mailing's journal, taken for the whole mailing and removed once its outcome was said. */
export class MailingJournal {
  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
    private readonly messages: Map<Message, Planned>,
    private readonly earlierStatus: Map<string, JournalRecord>,
  ) {}

  /**
   * Takes the journal of these reports before any message is sent: a "locked" error when
   * another live process holds it; resumes a killed run's journal of the same messages on the
   * same day; replaces, with a warning, one of other messages or another day.
   */
  static async take(
    planned: readonly PlannedReport[],
    options: JournalOptions,
  ): Promise<MailingJournal> {
    const reports = planned.map((p) => p.report.job.name);
    const messages = plannedMessages(planned, options.only);
    const fingerprint = hash(
      [...messages.values()].map((m) => m.key.replace(/^\d+-/, "")).join("\n"),
    );
    const header: Header = {
      pid: process.pid,
      started: options.now.toISOString(),
      reports,
      day: planned.map((p) => reportDay(p.report.job, options.now)).join(","),
      fingerprint,
      messages: messages.size,
    };
    const path = join(options.outDir, `.mailing-${hash(reports.join("\0")).slice(0, 12)}.journal`);
    const carried = await takeOver(path, header, options);
    const keys = new Set([...messages.values()].map((m) => m.key));
    const earlier = new Map([...carried].filter(([key]) => keys.has(key)));
    const handle = await createJournal(path, header, earlier);
    held.add(path);
    return new MailingJournal(path, handle, messages, earlier);
  }

  /** The key of one of the mailing's messages. */
  key(message: Message): string {
    return this.planned(message).key;
  }

  /** What the journal planned for `message`: its key, log label and recipients. */
  private planned(message: Message): Planned {
    const planned = this.messages.get(message);
    if (planned === undefined) throw new Error("a message the mailing did not plan");
    return planned;
  }

  /**
   * What a killed earlier run did with this message, when it must not be sent again: sent (the
   * recipients the server refused named again, as that run would have), or under way when the
   * run died (delivery unknown, reported as a lost answer is). Undefined: send.
   */
  earlier(message: Message): EarlierOutcome | undefined {
    const { key, label, to, recipients } = this.planned(message);
    const record = this.earlierStatus.get(key);
    const status = record?.status;
    if (status === "sent") {
      const refused = record?.refused ?? [];
      if (refused.length === 0)
        return { delivered: false, problem: undefined, undelivered: [], unsure: [] };
      const named = refused.map(({ place }) => to[place] ?? "");
      const problem = `mail ${label}: the server refused recipient ${named.join(", ")}${codesSaid(refused, to)} (the others got it, in an earlier mailing that was cut short; it was not sent again)`;
      const undelivered = refused.map(({ place }) => recipients[place] ?? "");
      return { delivered: false, problem, undelivered, unsure: [] };
    }
    if (status !== "sending" && status !== "unknown") return undefined;
    const problem = `mail ${label}: delivery unknown (an earlier mailing was cut short while the message was being delivered; it was not sent again)`;
    return { delivered: false, problem, undelivered: [], unsure: recipients };
  }

  /**
   * Recorded, and on disk, once the server asked for the message and before its first byte is
   * handed over: synchronously, as the handing over waits for nothing. Killed before, the run
   * left a message that did not reach the server, which is sent on resuming.
   */
  sending(key: string): void {
    writeSync(this.handle.fd, `sending ${key}\n`);
    fsyncSync(this.handle.fd);
  }

  /** Records what sending `message` did: of one delivered, which recipients were refused. */
  outcome(message: Message, sent: Outcome): Promise<void> {
    const { key, recipients } = this.planned(message);
    const status = sent.unsure.length > 0 ? "unknown" : sent.delivered ? "sent" : "failed";
    const refused =
      status === "sent" ? placesOf(recipients, sent.undelivered, sent.refusedCodes ?? []) : [];
    return this.append(recordLine(key, { status, refused }));
  }

  /** Removes the journal: the mailing's outcome was said. */
  async close(): Promise<void> {
    held.delete(this.path);
    await this.handle.close().catch(() => undefined);
    await unlink(this.path).catch(() => undefined);
  }

  /** The records being written: one after another, as messages under way at once end. */
  private writes: Promise<void> = Promise.resolve();

  private append(line: string): Promise<void> {
    const written = this.writes.then(async () => {
      await this.handle.appendFile(`${line}\n`);
      await this.handle.sync();
    });
    this.writes = written.catch(() => undefined);
    return written;
  }
}

/**
 * Clears the way for this mailing's journal at `path`: nothing there, or a killed run's journal
 * moved aside (atomically: of two runs finding it, one moves it, the other then finds the
 * winner's). Answers the killed run's records when it mailed the same messages on the same day.
 */
async function takeOver(
  path: string,
  header: Header,
  options: JournalOptions,
): Promise<Map<string, JournalRecord>> {
  for (;;) {
    const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw journalError(path, error);
    });
    if (text === undefined) return new Map();
    const found = parseJournal(text);
    const live =
      found.header !== undefined &&
      (alive(found.header.pid, found.header.started) || held.has(path));
    if (live) refuse(path, found.header as Header, options);
    const aside = `${path}.${process.pid}.old`;
    const moved = await rename(path, aside).then(
      () => true,
      () => false,
    );
    if (!moved) continue;
    if ((await readFile(aside, "utf8")) !== text) {
      // Another run replaced it in between: its journal goes back, and is judged again.
      await link(aside, path).catch(() => undefined);
      await unlink(aside);
      continue;
    }
    await unlink(aside);
    return resumed(found, header, options.logger);
  }
}

/** The killed run's records if it mailed the same messages on the same day; said either way. */
function resumed(
  found: ReturnType<typeof parseJournal>,
  header: Header,
  logger: Logger,
): Map<string, JournalRecord> {
  const earlier = found.header;
  const statuses = [...found.status.values()].map((record) => record.status);
  const sent = statuses.filter((s) => s === "sent").length;
  const underway = statuses.filter((s) => s === "sending" || s === "unknown").length;
  const who = `an earlier mailing of ${header.reports.join(", ")} (PID ${earlier?.pid ?? "unknown"}, started ${earlier === undefined ? "at an unknown time" : clock(earlier.started)})`;
  const total = earlier?.messages ?? statuses.length;
  const more = underway === 0 ? "" : ` (${underway} more under way`;
  const same = earlier?.fingerprint === header.fingerprint && earlier.day === header.day;
  if (same) {
    const rest = header.messages - sent - underway;
    logger.warn(
      `${who} was cut short after sending ${sent} of ${total} messages${more && `${more}: delivery unknown, not sent again)`}; sending the other ${rest}`,
    );
    return found.status;
  }
  logger.warn(
    `${who} was cut short after sending ${sent} of ${total} messages${more && `${more})`}, of other messages (another day, other recipients, or a command sending again only some of them); its journal is replaced and all ${header.messages} messages of this mailing are sent`,
  );
  return new Map();
}

/** Refuses a mailing of reports another live process is mailing (nothing sent). */
function refuse(path: string, held: Header, options: JournalOptions): never {
  throw new LmsExportError(
    "locked",
    `another lms-export (PID ${held.pid}) is mailing ${held.reports.join(", ")} from ${options.outDir} since ${clock(held.started)}; wait for it to end (nothing was mailed; the report files are written). If no lms-export runs as PID ${held.pid}, remove ${path}`,
  );
}

/**
 * Writes the journal whole under a name of this process, then links it in place: a run reading
 * it never sees it half-written, and of two runs creating it, one does (the other is refused).
 */
async function createJournal(
  path: string,
  header: Header,
  earlier: ReadonlyMap<string, JournalRecord>,
): Promise<FileHandle> {
  const records = [...earlier].map(([key, record]) => `${recordLine(key, record)}\n`).join("");
  const draft = `${path}.${process.pid}.new`;
  const handle = await open(draft, "w", 0o600).catch((error) => {
    throw journalError(path, error);
  });
  try {
    await handle.writeFile(`${JSON.stringify(header)}\n${records}`);
    await handle.sync();
    await link(draft, path);
  } catch (error) {
    await handle.close();
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new LmsExportError(
        "locked",
        `another lms-export started mailing ${header.reports.join(", ")} at the same moment; nothing was mailed by this one (the report files are written)`,
      );
    }
    throw journalError(path, error);
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  return handle;
}

function journalError(path: string, error: unknown): LmsExportError {
  return new LmsExportError(
    "storage-failed",
    `cannot write the mailing journal ${path} (${(error as Error).message}); nothing was mailed: check that the output folder is writable`,
    { cause: error },
  );
}
