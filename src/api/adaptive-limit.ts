/**
 * How many requests to keep in flight when the portal's capacity is unknown: pure functions from
 * what the portal answered (round-trip times and overload answers) to the next limit.
 *
 * The design follows the known adaptive-concurrency controllers (TCP Vegas, Netflix's Gradient2,
 * Envoy's adaptive concurrency filter):
 * - A server with spare capacity answers in about its no-load time however many requests come;
 *   past its capacity, requests queue and the round trip grows with the queue. So the limit grows
 *   while the round trip stays near the no-load baseline, and shrinks in proportion once it grows
 *   past `tolerance` times the baseline (which leaves a short queue at the portal, so it never
 *   idles between one answer and the next request).
 * - A 429 or 503 is the portal saying it is full: the limit is halved at once, once per window,
 *   since the answers of the requests already in flight tell nothing new.
 * - The baseline is the median round trip of a few answers at `probeLimit` requests in flight,
 *   measured at the start and again from time to time (as Envoy does): a portal that became
 *   slower for good would otherwise keep the limit needlessly low. A window whose median is lower
 *   lowers it. Medians, not minima: one lucky answer would make every later window look slow.
 * - While no queue shows (a round trip below `slowStartRatio` times the baseline) slow start
 *   doubles the limit per window; while the round trip is steady (below `steadyRatio` times the
 *   baseline) it grows by a quarter per window, so a large portal is reached in a few
 *   round trips (a window is about one round trip of answers), and a limit cut by a
 *   passing slowdown (of the portal, or of this machine: its own busy moments lengthen the round
 *   trips it measures) comes back as fast; between `steadyRatio` and `tolerance` it grows by a
 *   little, probing for the point where the portal's queue starts.
 * - A rising round trip cuts the limit by at most a quarter per window, an overload answer by
 *   half: latency is a noisy signal, a 429 is not. Until the next probe the limit then grows to
 *   no more than one below the load the portal refused (a refusal makes everyone wait its
 *   `Retry-After`, and growing into the same wall again costs that again).
 * - A rising round trip at a load the portal took without a queue (and no higher than an
 *   overload answer left the limit) is not the portal's queue: this machine or the network stalled, and every
 *   answer in flight came late at once. It cuts no lower than that load until it lasts
 *   `trustedSlowWindows` windows in a row, and once a window is back within the tolerance the
 *   limit returns to that load at once. On a shared machine such stalls otherwise cut the limit
 *   far below the portal's capacity several times a second, and it spent the time between them
 *   climbing back.
 * - The limit only grows when it is used: a client with little to send proves nothing about the
 *   portal, and a limit grown idle would become a burst when the work arrives.
 */

/** Bounds and tuning of the controller. */
export interface AdaptiveSettings {
  readonly minLimit: number;
  readonly maxLimit: number;
  /** The limit of the first window, after the first baseline probe. */
  readonly initialLimit: number;
  /** Requests in flight while the no-load round trip is measured. */
  readonly probeLimit: number;
  /** Answers a probe takes its baseline from. */
  readonly probeSamples: number;
  /** Time between baseline probes, ms. */
  readonly probeIntervalMs: number;
  /** Round trip ÷ baseline above which the limit shrinks. */
  readonly tolerance: number;
  /** Round trip ÷ baseline below which slow start doubles the limit per window. */
  readonly slowStartRatio: number;
  /** Round trip ÷ baseline below which the limit grows by `regrowFactor` per window. */
  readonly steadyRatio: number;
  /** Factor applied on an overload answer. */
  readonly overloadFactor: number;
  /** The smallest factor a rising round trip applies per window. */
  readonly latencyFactor: number;
  /** Growth per window of a steady round trip after slow start. */
  readonly regrowFactor: number;
  /** Answers per window, at least (a window is also at least as many as the limit). */
  readonly minWindow: number;
  /** Slow windows in a row after which a rising round trip cuts below the queue-free load. */
  readonly trustedSlowWindows: number;
}

export const DEFAULT_ADAPTIVE: AdaptiveSettings = {
  minLimit: 1,
  maxLimit: 64,
  initialLimit: 4,
  probeLimit: 2,
  probeSamples: 8,
  probeIntervalMs: 5_000,
  tolerance: 2,
  slowStartRatio: 1.2,
  steadyRatio: 1.5,
  overloadFactor: 0.5,
  latencyFactor: 0.75,
  regrowFactor: 1.25,
  minWindow: 8,
  trustedSlowWindows: 4,
};

/** One answer, as the limiter saw it. */
export interface LimitSample {
  /** When the request was sent, ms (any monotonic clock, the same as `now`). */
  readonly startedAt: number;
  /** Round trip, ms. */
  readonly latencyMs: number;
  /** A 429 or 503: the portal said it is full. */
  readonly overload: boolean;
  /** Requests in flight when this one was sent, itself included. */
  readonly inFlight: number;
}

export type LimitPhase = "probe" | "slowStart" | "steady";

/** Everything the controller remembers. Replace it with what {@link nextState} answers. */
export interface LimitState {
  readonly limit: number;
  readonly phase: LimitPhase;
  /** The no-load round trip, ms; undefined until the first probe ends. */
  readonly baselineMs: number | undefined;
  /** Round trips of the current window. */
  readonly window: readonly number[];
  /** Largest number in flight seen in the current window. */
  readonly windowInFlight: number;
  /** Answers to requests sent before this belong to an earlier window and are not judged. */
  readonly windowStart: number;
  /** Where a probe returns to. */
  readonly resume: { readonly limit: number; readonly phase: LimitPhase };
  readonly nextProbeAt: number;
  /** Round-trip median of the last full window, ms (for progress). */
  readonly lastRttMs: number | undefined;
  /**
   * The most requests in flight of a window whose round trip showed no queue (below
   * `slowStartRatio` times the baseline); an overload answer caps it at the limit it leaves.
   */
  readonly queueFree: number | undefined;
  /** Windows in a row whose round trip was above `tolerance` times the baseline. */
  readonly slowWindows: number;
  /**
   * Requests in flight when the portal last refused one, since the last probe: the limit grows no
   * higher than one below it. Each refusal costs every request the portal's `Retry-After`.
   */
  readonly refusedAt: number | undefined;
}

const clamp = (value: number, s: AdaptiveSettings): number =>
  Math.max(s.minLimit, Math.min(s.maxLimit, Math.floor(value)));

/** The state at the start of a run: a probe for the baseline, then slow start. */
export function initialState(now: number, s: AdaptiveSettings = DEFAULT_ADAPTIVE): LimitState {
  return {
    limit: clamp(s.probeLimit, s),
    phase: "probe",
    baselineMs: undefined,
    window: [],
    windowInFlight: 0,
    windowStart: now,
    resume: { limit: clamp(s.initialLimit, s), phase: "slowStart" },
    nextProbeAt: now + s.probeIntervalMs,
    lastRttMs: undefined,
    queueFree: undefined,
    slowWindows: 0,
    refusedAt: undefined,
  };
}

/** A new window from `now`, at `limit`, in `phase`. */
function newWindow(
  state: LimitState,
  now: number,
  limit: number,
  phase: LimitPhase,
  s: AdaptiveSettings,
): LimitState {
  return {
    ...state,
    limit: clamp(limit, s),
    phase,
    window: [],
    windowInFlight: 0,
    windowStart: now,
  };
}

/** The state after one answer arrived at `now`. */
export function nextState(
  state: LimitState,
  sample: LimitSample,
  now: number,
  s: AdaptiveSettings = DEFAULT_ADAPTIVE,
): LimitState {
  // Sent before the last change: it was judged already, or belongs to the previous limit.
  if (sample.startedAt < state.windowStart) return state;
  if (state.phase === "probe") return probeAnswer(state, sample, now, s);
  if (sample.overload) {
    const halved = newWindow(state, now, state.limit * s.overloadFactor, "steady", s);
    // Full: no load above the new limit is known to be free of a queue any more.
    const queueFree =
      state.queueFree === undefined ? undefined : Math.min(state.queueFree, halved.limit);
    return { ...halved, queueFree, slowWindows: 0, refusedAt: sample.inFlight };
  }
  if (now >= state.nextProbeAt) {
    const probing = newWindow(state, now, s.probeLimit, "probe", s);
    const resume = { limit: state.limit, phase: state.phase };
    return { ...probing, resume, slowWindows: 0, refusedAt: liftedWall(state) };
  }
  const window = [...state.window, sample.latencyMs];
  const windowInFlight = Math.max(state.windowInFlight, sample.inFlight);
  // A window is about one round trip of answers: fewer would judge a new limit before the queue
  // it builds at the portal shows in the round trip.
  if (window.length < Math.max(s.minWindow, state.limit)) {
    return { ...state, window, windowInFlight };
  }
  return judgeWindow({ ...state, window, windowInFlight }, now, s);
}

/**
 * Where the portal last refused, as a probe begins: forgotten (the portal may have more room now)
 * once the load just below it was taken without a queue; kept while that load still queued. A
 * portal serving one request at a time queues at 2 and 3 already, and lifted at every probe the
 * wall cost a refusal and its pause every few seconds.
 */
function liftedWall(state: LimitState): number | undefined {
  const { refusedAt, queueFree } = state;
  if (refusedAt === undefined) return undefined;
  return queueFree !== undefined && queueFree >= refusedAt - 1 ? undefined : refusedAt;
}

/** During a probe, only answers to requests sent at the probe's load count. */
function probeAnswer(
  state: LimitState,
  sample: LimitSample,
  now: number,
  s: AdaptiveSettings,
): LimitState {
  if (sample.overload) {
    // Full even at the probe's load: come back to half of what was used before.
    const resume = {
      limit: clamp(state.resume.limit * s.overloadFactor, s),
      phase: "steady" as const,
    };
    return { ...state, resume };
  }
  if (sample.inFlight > s.probeLimit) return state;
  const window = [...state.window, sample.latencyMs];
  if (window.length < s.probeSamples) return { ...state, window };
  const measured = median(window);
  const ended = newWindow(state, now, state.resume.limit, state.resume.phase, s);
  // Loads judged free of a queue against a clearly higher baseline are not.
  const queueFree = baselineDropped(state, measured, s) ? undefined : state.queueFree;
  return { ...ended, baselineMs: measured, nextProbeAt: now + s.probeIntervalMs, queueFree };
}

/** A round trip clearly below the baseline: what was learned against the old one is not trusted. */
function baselineDropped(state: LimitState, rttMs: number, s: AdaptiveSettings): boolean {
  return state.baselineMs !== undefined && rttMs * s.slowStartRatio < state.baselineMs;
}

/** A full window: grow, hold or shrink by its median round trip against the baseline. */
function judgeWindow(state: LimitState, now: number, s: AdaptiveSettings): LimitState {
  const rtt = median(state.window);
  const baseline = Math.min(state.baselineMs ?? rtt, rtt);
  const ratio = rtt / Math.max(baseline, 1e-3);
  const judged = { ...state, baselineMs: baseline, lastRttMs: rtt, slowWindows: 0 };
  if (ratio > s.tolerance) {
    // Shrink toward where the round trip would be back at the tolerance.
    const slowWindows = state.slowWindows + 1;
    const factor = Math.max(s.latencyFactor, s.tolerance / ratio);
    const floor =
      slowWindows < s.trustedSlowWindows ? Math.min(state.limit, state.queueFree ?? 0) : 0;
    const cut = newWindow(judged, now, Math.max(state.limit * factor, floor), "steady", s);
    return { ...cut, slowWindows };
  }
  // No queue at all (within what slow start allows): a steady round trip may hide a short
  // queue, and a load above the portal's capacity must not become a floor.
  // A clearly lower baseline shows the loads judged free of a queue against the old one (a probe
  // measured on a busy machine, at the start of a run) may have had one: only this window counts.
  const known = baselineDropped(state, rtt, s) ? 0 : (state.queueFree ?? 0);
  const queueFree =
    ratio < s.slowStartRatio ? Math.max(known, state.windowInFlight) : state.queueFree;
  return growWindow({ ...judged, queueFree }, ratio, now, s);
}

/** A window within the tolerance: grow by how far the round trip is from the baseline. */
function growWindow(
  state: LimitState,
  ratio: number,
  now: number,
  s: AdaptiveSettings,
): LimitState {
  // Growing is only earned by a limit that was (nearly) used, and from what was used.
  const used = state.windowInFlight >= state.limit / 2;
  if (!used) return newWindow(state, now, state.limit, state.phase, s);
  // Back within the tolerance below a load the portal took without a queue: a stall that cut it
  // is over, and that load is safe at once (climbing back a quarter per window took seconds).
  if (state.queueFree !== undefined && state.limit < state.queueFree) {
    return newWindow(state, now, state.queueFree, "steady", s);
  }
  // Never again as high as where the portal last refused (until the next probe lifts that).
  const ceiling = state.refusedAt === undefined ? Number.POSITIVE_INFINITY : state.refusedAt - 1;
  // Never below the limit, never above the ceiling.
  const capped = (limit: number): number => Math.max(state.limit, Math.min(ceiling, limit));
  // At least one more: a quarter of 1, 2 or 3 rounds down to nothing, and a limit cut that low
  // by a portal that was full then stayed there once the portal had room again.
  const grow = (factor: number): number =>
    capped(
      Math.min(
        Math.max(state.limit + 1, state.limit * factor),
        Math.max(state.limit + 1, state.windowInFlight * factor),
      ),
    );
  // Doubling only while no queue shows at all: from at most 1.2 times the portal's capacity it
  // lands below capacity plus a queue of twice as much, where a portal would start refusing.
  if (state.phase === "slowStart" && ratio < s.slowStartRatio) {
    return newWindow(state, now, grow(2), "slowStart", s);
  }
  if (ratio < s.steadyRatio) return newWindow(state, now, grow(s.regrowFactor), "steady", s);
  const step = Math.max(1, Math.floor(Math.sqrt(state.limit) / 2));
  const added = Math.min(state.limit + step, Math.max(state.limit, state.windowInFlight + step));
  return newWindow(state, now, capped(added), "steady", s);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
