/**
 * Opening a run's store (the side file, then the database as needed), with the run's waits for
 * locks. Two moments matter to the run besides the store being open: when the side file is its
 * own (from then on no other extract of the database can run, so fetching may start), and when
 * the waiting to start should stop (an interruption, a refused key, a fetch that already failed).
 * That stop reaches the waits before the run is written down only (the side file's here, the
 * database's in prepare-run.ts): a run that is written down may still wait to record its end.
 */
import { DEFAULT_MERGE_WAIT_SECONDS } from "../config/defaults.js";
import type { LmsDatabase } from "../load/database.js";
import { ExtractStore } from "../load/extract-store.js";
import type { Logger } from "../log/logger.js";

/** How the store opens. */
export interface StoreSettings {
  /** A database path, or a database this process holds open. */
  readonly db: string | LmsDatabase;
  /** See RunExtractOptions.waitSeconds (extract.ts). */
  readonly waitSeconds: number | undefined;
  readonly logger: Logger;
  /** An interruption: stops every wait for a lock. */
  readonly signal: AbortSignal | undefined;
  /** The configured DuckDB memory ceiling, for a path. */
  readonly memoryLimit: string | undefined;
}

/** A store being opened. */
export interface StoreOpening {
  readonly store: Promise<ExtractStore>;
  /** Resolves once the side file is the run's; rejects if the store cannot open before that. */
  readonly sideHeld: Promise<void>;
  /** Stops the waits to start the run with the reason given (the run's first failure). */
  readonly stop: AbortController;
}

export function openStore(settings: StoreSettings): StoreOpening {
  const { logger, waitSeconds, signal } = settings;
  const stop = new AbortController();
  const sideSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let onHeld = () => {};
  const held = new Promise<void>((resolve) => {
    onHeld = resolve;
  });
  const store = ExtractStore.open(
    settings.db,
    {
      side: { seconds: waitSeconds, logger, signal: sideSignal, onHeld },
      database: {
        seconds: waitSeconds ?? DEFAULT_MERGE_WAIT_SECONDS,
        logger,
        ...(signal ? { signal } : {}),
        purpose: "(to record the run, or to merge what it fetched)",
      },
    },
    settings.memoryLimit,
  );
  // Read by the run and in its `finally`; never reported as unhandled meanwhile.
  store.catch(() => undefined);
  const sideHeld = Promise.race([held, store.then(() => undefined)]);
  sideHeld.catch(() => undefined);
  return { store, sideHeld, stop };
}
