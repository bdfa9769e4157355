/**
 * Sending one row, repeating only what is safe to repeat. The write operations have no
 * idempotency key, so a lost answer (timeout, reset) leaves it unknown whether the portal applied
 * the write:
 * - an edit sets fields to values: sending the same body again gives the same state, so it is
 *   sent again;
 * - a create sent again could make a second link, so the portal is first asked whether the link
 *   now exists (find-link.ts), and only when it does not is it sent again.
 *
 * Every create is checked first, not only those of a change set an earlier run left unfinished:
 * a link may also have been made by a run killed while a create was in flight whose file was
 * edited since (a new change set), or by anyone since the last extract, and a link made twice
 * cannot be undone (the interface has no delete of a link). The check costs one list request per
 * create: 300 creates at 30 ms a request, 4 at once, took 6.3 s instead of 3.9 s.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LmsClient } from "../api/client.js";
import { ApiError, EnvelopeError, HttpError, NetworkError } from "../api/errors.js";
import { isRetryable, retryDelay } from "../api/retry.js";
import type { CellValue } from "./cell-value.js";
import { findLink } from "./find-link.js";
import type { OpSpec } from "./ops.js";

/** Attempts per row, the first included. */
const ATTEMPTS = 8;
const BASE_MS = 250;
const MAX_MS = 8_000;

export type AnsweredRecord = Readonly<Record<string, unknown>>;

type Body = Readonly<Record<string, CellValue>>;

function sendEdit(
  client: LmsClient,
  spec: OpSpec,
  id: number,
  body: Body,
): Promise<AnsweredRecord> {
  // The registry's writable fields are what reaches here; the client's body types say the same.
  switch (spec.resource) {
    case "product_access":
      return client.editProductAccess(id, body as Parameters<LmsClient["editProductAccess"]>[1]);
    case "grp":
      return client.editGroup(id, body as Parameters<LmsClient["editGroup"]>[1]);
    case "user":
      return client.editUser(id, body as Parameters<LmsClient["editUser"]>[1]);
    default:
      throw new TypeError(`${spec.op} is not an edit`);
  }
}

/**
 * Whether a write that failed with `error` may still have been applied: its request was sent but
 * the answer was lost (the connection broke or timed out after the request left, a gateway lost
 * the server's answer: 502, 504) or came back unreadable (a 2xx that is no envelope). A
 * connection never made, or an answer saying the write failed, leaves the record as it was.
 */
function answerLost(error: unknown): boolean {
  // The token the write waited for is not the write: nothing was sent.
  if (error instanceof ApiError && error.operation === "authenticate") return false;
  if (error instanceof NetworkError) return error.phase !== "connect";
  if (error instanceof HttpError) return error.httpStatus === 502 || error.httpStatus === 504;
  return error instanceof EnvelopeError && error.problem !== "status_false";
}

export interface SendOptions {
  readonly signal?: AbortSignal | undefined;
  /** Told each time a write's answer is lost (see {@link answerLost}): the portal may hold it. */
  readonly onAnswerLost?: (() => void) | undefined;
}

/**
 * The record the portal answered or found, and whether it was there before this row was sent: a
 * link the check before a create found, with no create of this row sent before it.
 */
export interface SentRow {
  readonly record: AnsweredRecord;
  readonly existed: boolean;
}

/** Sends one row and answers what the portal answered (or found). Throws the last error. */
export async function sendRow(
  client: LmsClient,
  spec: OpSpec,
  id: number | null,
  body: Body,
  options: SendOptions,
): Promise<SentRow> {
  const create = spec.kind === "create";
  const userId = Number(body.user_grp_user_id);
  const groupId = Number(body.user_grp_grp_id);
  // A create of this row went out before (its answer lost): a link found now may be its own.
  let created = false;
  for (let attempt = 1; ; attempt++) {
    // Whether the failure is the write's (a create's check before it is a read).
    let writing = !create;
    try {
      if (!create)
        return { record: await sendEdit(client, spec, id as number, body), existed: false };
      const found = await findLink(client, userId, groupId);
      if (found) return { record: found, existed: !created };
      const link = { user_grp_group_admin: 0, ...body } as Parameters<
        LmsClient["createUserGroup"]
      >[0];
      writing = true;
      created = true;
      return { record: await client.createUserGroup(link), existed: false };
    } catch (error) {
      if (writing && answerLost(error)) options.onAnswerLost?.();
      const delay = retryDelay({ attempt, error, baseMs: BASE_MS, maxMs: MAX_MS });
      if (delay === null || attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      await sleep(delay, undefined, { signal: options.signal });
    }
  }
}
