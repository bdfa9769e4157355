/**
 * Shows extract progress: redrawn bars on a terminal, one log line per finished resource otherwise.
 */
import type { Writable } from "node:stream";
import type { PaceFigures } from "../api/client.js";
import type { Progress, ResourceProgress } from "../extract/progress.js";
import type { Logger } from "../log/logger.js";

const BAR_WIDTH = 20;
const MIN_BAR_WIDTH = 5;
/**
 * Columns assumed when the stream does not say: a terminal that reports none, or reports 0 (a
 * pseudo-terminal whose size was never set, as `script` or `ssh -t` from a cron job gives), where
 * fitting the lines to 0 columns would leave the pace line one letter long.
 */
const DEFAULT_COLUMNS = 80;

function columnsOf(stream: Writable): number {
  const reported = (stream as { columns?: number }).columns;
  return reported !== undefined && reported > 0 ? reported : DEFAULT_COLUMNS;
}

function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

/**
 * One line of the terminal display, shorter than `columns`: a line that wraps breaks the
 * cursor-up redraw and scrolls the display. The bar shrinks first, then the rate goes.
 */
function progressLine(p: ResourceProgress, now: number, columns: number): string {
  const full = progressFields(p, now, BAR_WIDTH);
  const room = columns - 1;
  if (full.text.length <= room) return full.text;
  const barWidth = Math.max(MIN_BAR_WIDTH, BAR_WIDTH - (full.text.length - room));
  const narrower = progressFields(p, now, barWidth);
  if (narrower.text.length <= room) return narrower.text;
  return narrower.withoutRate.slice(0, room);
}

function progressFields(
  p: ResourceProgress,
  now: number,
  barWidth: number,
): { text: string; withoutRate: string } {
  const resumed = p.requestsPlanned === 0 && p.records > 0;
  const planned = Math.max(p.requestsPlanned, 1);
  const share = resumed ? 1 : Math.min(1, p.requestsDone / planned);
  const filled = Math.round(share * barWidth);
  const bar = `${"█".repeat(filled)}${"░".repeat(barWidth - filled)}`;
  const elapsed = (p.finishedAt ?? now) - p.startedAt;
  const rate = elapsed > 0 ? Math.round((p.records * 1000) / elapsed) : 0;
  const remaining = p.requestsPlanned - p.requestsDone;
  const eta =
    p.finishedAt !== undefined
      ? "done"
      : p.requestsDone > 0 && remaining > 0
        ? `ETA ${formatDuration((elapsed / p.requestsDone) * remaining)}`
        : "";
  // A resource an interrupted attempt finished asks nothing now: what it loaded is the figure.
  const requests = resumed ? "resumed" : `${p.requestsDone}/${p.requestsPlanned} req`;
  const head = `${p.resource.padEnd(19)} ${bar} ${requests.padStart(17)} ${p.records.toLocaleString("en-US").padStart(11)} rec`;
  const rateText = `${rate.toLocaleString("en-US")}/s`.padStart(9);
  return { text: `${head} ${rateText} ${eta}`.trimEnd(), withoutRate: `${head} ${eta}`.trimEnd() };
}

const ms = (value: number | undefined): string =>
  value === undefined ? "–" : `${Math.round(value)} ms`;

/** The pace line: requests in flight now (and their range), latency, "too busy" answers. */
export function paceLine(pace: PaceFigures): string {
  const range = pace.mode === "auto" ? ` (auto, ${pace.min}–${pace.max} so far)` : " (fixed)";
  const baseline = pace.baselineMs === undefined ? "" : ` (no-load ${ms(pace.baselineMs)})`;
  const busy = pace.overloads === 0 ? "" : `, ${pace.overloads} too-busy answers`;
  return `concurrency ${pace.current}${range}, latency ${ms(pace.latencyMs)}${baseline}${busy}`;
}

/** Redraws all resources every `intervalMs` on a terminal; stop() draws the final state. */
export function renderTerminalProgress(
  progress: Progress,
  stream: Writable,
  intervalMs = 200,
): { stop(): void } {
  let drawn = 0;
  const draw = () => {
    const now = Date.now();
    const columns = columnsOf(stream);
    const lines = progress.snapshot().map((p) => progressLine(p, now, columns));
    const pace = progress.pace();
    // Kept within the terminal's width like the other lines, so nothing wraps.
    if (pace !== undefined) lines.push(paceLine(pace).slice(0, Math.max(1, columns - 1)));
    const up = drawn > 0 ? `\x1b[${drawn}A` : "";
    stream.write(`${up}${lines.map((line) => `\x1b[2K${line}\n`).join("")}`);
    drawn = lines.length;
  };
  draw();
  const timer = setInterval(draw, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      draw();
    },
  };
}

/** Off a terminal: one structured line per resource as it finishes. */
export function logProgress(progress: Progress, logger: Logger): void {
  progress.onFinish((_event, p) => {
    const pace = progress.pace();
    logger.info(`extracted ${p.resource}`, {
      resource: p.resource,
      records: p.records,
      requests: p.requestsDone,
      seconds: Math.round(((p.finishedAt ?? Date.now()) - p.startedAt) / 100) / 10,
      ...(pace === undefined
        ? {}
        : {
            concurrency: pace.current,
            latencyMs: pace.latencyMs === undefined ? null : Math.round(pace.latencyMs),
            overloadAnswers: pace.overloads,
          }),
    });
  });
}
