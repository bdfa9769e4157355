/**
 * A log line while one delivery attempt has waited long for the mail server, and again as long as
 * it goes on. A relay that holds a message before answering (greylisting, a busy queue) is waited
 * out for up to two minutes of silence (smtp-attempt.ts); without a word, a run on a terminal
 * looks hung meanwhile, and a log shows a gap with no cause.
 */
import type { Logger } from "../log/logger.js";

/** How long an attempt waits before the first line, and between lines. */
export const SLOW_NOTICE_MS = 15_000;

/**
 * `work`'s outcome; while it is pending, a warning every `everyMs` with the time waited so far
 * and how long the server may stay silent before the attempt is given up, read at each warning
 * (`limitMs`), since that differs between a greeting awaited and a message's answer.
 */
export async function noticeSlowAnswer<T>(
  work: Promise<T>,
  notice: { logger: Logger; everyMs: number; fields: Record<string, unknown>; limitMs(): number },
): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => {
    notice.logger.warn("still waiting for the mail server to answer", {
      ...notice.fields,
      waitedSeconds: Math.round((Date.now() - started) / 1000),
      givesUpAfterSilentSeconds: notice.limitMs() / 1000,
    });
  }, notice.everyMs);
  // A pending delivery keeps the process alive by its socket; the reminder alone must not.
  timer.unref();
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
