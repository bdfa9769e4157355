/**
 * The key checked with the portal while the run's storage opens: the check's answer is read where
 * it is awaited (before the run is written down), and a run that ends first stops it.
 */
import type { LmsClient } from "../api/client.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { PendingKeyCheck } from "./prepare-run.js";
import { fetchFailure } from "./run-outcome.js";

/** Checks the key with the portal; a failure is the error the user sees. */
async function authenticate(
  client: LmsClient,
  controller: AbortController,
  signal: AbortSignal | undefined,
): Promise<void> {
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", stop, { once: true });
  try {
    await client.authenticate();
  } catch (error) {
    throw await fetchFailure(undefined, error, signal?.aborted === true);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

/** Starts checking the key; a failure is read where `result` is awaited, never as unhandled. */
export function checkKey(
  client: LmsClient,
  controller: AbortController,
  signal: AbortSignal | undefined,
): PendingKeyCheck {
  let settled = false;
  const result = authenticate(client, controller, signal);
  const done = () => {
    settled = true;
  };
  result.then(done, done);
  return { result, settled: () => settled };
}

/**
 * Closes the client once the key check has settled: a run that fails before awaiting it (a
 * locked database, a bad --only) stops the check rather than waiting for the portal's answer.
 */
export async function stopClient(
  client: LmsClient,
  controller: AbortController,
  keyCheck: PendingKeyCheck,
): Promise<void> {
  if (!keyCheck.settled()) controller.abort(new LmsExportError("interrupted", "stopped"));
  await keyCheck.result.catch(() => undefined);
  await client.close();
}
