/**
 * Sending one report's messages: built one after another, in order, and delivered several at
 * once, each over a connection of its own taken from the mailing's pool (session-pool.ts), so
 * that the server's answers to one are waited for while the next is built and handed over. A
 * connection is taken before its message is built: no more messages are held built than can be
 * sent.
 *
 * What one connection at a time gave still holds: each message's outcome is in the journal once,
 * after its delivery ended; the copy of the rows without an address is built only once every
 * share has an outcome, as it names the shares that did not get through; once the signal fires,
 * no message is built or handed over, and those under way end as a single one did (finished once
 * the server has asked for it, given up before); a server found unreachable ends the report there.
 */
import type { ReportSource } from "../report/report-source.js";
import { shareName } from "./mail-block.js";
import { partOf, targetsOf } from "./mail-only.js";
import type { Message } from "./mail-plan.js";
import type { ReportProgress } from "./mail-progress.js";
import type { MailSummary } from "./mail-summary.js";
import type { EarlierOutcome } from "./mailing-journal.js";
import { scopeLine } from "./scope-line.js";
import {
  composeMessage,
  deliverComposed,
  type Outgoing,
  type SendOptions,
  type Sent,
} from "./send-message.js";
import type { SessionPool } from "./session-pool.js";
import type { SmtpAttemptError } from "./smtp-attempt.js";
import { removeStaleShares } from "./stale-shares.js";

/** A report's messages ended by a server found unreachable: its error, and their problem lines. */
export interface ServerDown {
  error: SmtpAttemptError;
  problems: string[];
}

/** One report's sending, as its messages' outcomes come in. */
class ReportSending {
  /** Shares whose rows may have reached nobody: the copy of the rows without an address says so. */
  readonly missed: string[] = [];
  readonly inFlight = new Set<Promise<void>>();
  down: ServerDown | undefined;
  /** What went wrong other than the mail (the journal could not be written): thrown at the end. */
  failure: { error: unknown } | undefined;
  /** Messages that reached every recipient (now, or in a killed earlier run of the mailing). */
  reached = 0;

  constructor(
    readonly progress: ReportProgress,
    readonly summary: MailSummary,
  ) {}

  /** Whether no further message may be sent. */
  get ended(): boolean {
    return this.down !== undefined || this.failure !== undefined;
  }

  /** Adds what `message` did to the report's progress and the mailing's summary. */
  record(message: Message, sent: Sent | EarlierOutcome): void {
    const part = partOf(message.scope);
    this.progress.tried.set(
      message,
      targetsOf(sent.undelivered, part, this.progress.planned.twice),
    );
    const { summary } = this;
    if (sent.undelivered.length === 0 && sent.unsure.length === 0) this.reached++;
    if (sent.delivered) summary.sent++;
    if (sent.problem !== undefined) summary.problems.push(sent.problem);
    if (sent.unsure.length > 0) summary.unsure.push({ to: sent.unsure, line: sent.problem ?? "" });
    if (message.scope?.address !== undefined) this.missed.push(...sent.undelivered, ...sent.unsure);
    if (sent.serverDown === undefined) return;
    this.down ??= { error: sent.serverDown, problems: [] };
    if (sent.problem !== undefined) this.down.problems.push(sent.problem);
  }

  /** Resolves once every message handed over has its outcome. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }
}

/**
 * Sends one report's messages, adding what happened to `summary` and `progress`. Answers how a
 * server found unreachable ended them (see stopMailing); undefined when they were all tried.
 * Throws (the signal fired, a journal not written) only once every message handed over has its
 * outcome, recorded.
 */
export async function sendReport(
  db: ReportSource,
  progress: ReportProgress,
  summary: MailSummary,
  options: SendOptions & { pool: SessionPool },
): Promise<ServerDown | undefined> {
  const sending = new ReportSending(progress, summary);
  try {
    for (const message of progress.planned.messages) {
      // The copy of the rows without an address names the shares that did not get through.
      if (partOf(message.scope) === "unassigned") await sending.settled();
      if (sending.ended) break;
      // A killed earlier run of this mailing may have sent it, or been sending it: not again, and
      // its record stays as it was (a resumed run killed in turn must not send it either).
      const earlier = options.journal.earlier(message);
      if (earlier === undefined) await handOver(db, sending, message, options);
      else sending.record(message, earlier);
    }
  } finally {
    await sending.settled();
  }
  if (sending.failure !== undefined) throw sending.failure.error;
  if (sending.down === undefined) await removeAfterResend(sending, options);
  return sending.down;
}

/**
 * Under --mail-only, once every message of the report reached everyone it was sent to, the
 * earlier shares of addresses the report no longer has are removed, as a full run removes them
 * (stale-shares.ts). Not before: a message that did not get through is sent again from its
 * folder, and a run that fails leaves the folders as they were.
 */
async function removeAfterResend(sending: ReportSending, options: SendOptions): Promise<void> {
  const { planned } = sending.progress;
  if (planned.shares === undefined || sending.reached < planned.messages.length) return;
  const { job } = planned.report;
  await removeStaleShares(options.outDir, job, planned.shares, options.logger);
}

/**
 * Takes a connection, builds `message` and starts its delivery over it, recorded in `sending`
 * when it ends; resolves once it is under way.
 */
async function handOver(
  db: ReportSource,
  sending: ReportSending,
  message: Message,
  options: SendOptions & { pool: SessionPool },
): Promise<void> {
  const session = await options.pool.take();
  let composed: Awaited<ReturnType<typeof composeMessage>>;
  let outgoing: Outgoing;
  try {
    // Another message's end may have ended the report meanwhile.
    if (sending.ended) return options.pool.give(session, false);
    outgoing = outgoingOf(message, sending.missed, options);
    composed = await composeMessage(db, sending.progress.planned, outgoing, options);
  } catch (error) {
    options.pool.give(session, false);
    throw error;
  }
  let delivered = false;
  const delivery = deliverComposed(sending.progress, outgoing, composed, session, options)
    .then(async (sent) => {
      delivered = sent.delivered;
      await options.journal.outcome(message, sent);
      sending.record(message, sent);
    })
    .catch((error: unknown) => {
      sending.failure ??= { error };
    })
    .finally(() => {
      sending.inFlight.delete(delivery);
      options.pool.give(session, delivered);
    });
  sending.inFlight.add(delivery);
}

/** `message` as sent: its scope line written knowing which shares did not get through. */
function outgoingOf(message: Message, missed: readonly string[], options: SendOptions): Outgoing {
  const shares = { missed, partial: options.only !== undefined, outDir: options.outDir };
  const scope = message.scope && scopeLine(message.scope, shares);
  const part = partOf(message.scope);
  const share = shareName(message.scope);
  const key = options.journal.key(message);
  return { ...message, scope, part, share, key, planned: message };
}
