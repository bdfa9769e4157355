/**
 * A read by id must answer the record asked for. A cache or a proxy that mixes up its entries, or
 * a portal that answers the nearest id, gives another record under the right path: stored as it
 * is, that record takes the place of another one of the same key (or adds one the portal may not
 * have) while the asked id looks answered. Such an answer is refused like any answer of the wrong
 * shape, so it is asked again and, if it stays wrong, the run fails.
 */
import { EnvelopeError, type RequestContext } from "./errors.js";
import { keyOf } from "./key-ranges.js";

/** The key field and id a read by id asks for. */
export interface AskedKey {
  readonly field: string;
  readonly id: number;
}

/**
 * Throws when the record a read answered names another key than `asked` (nothing to check for a
 * read without one). A record without a readable key is left to the loader, which rejects it
 * with its reason.
 */
export function checkAnsweredKey(
  record: unknown,
  asked: AskedKey | undefined,
  context: RequestContext,
  httpStatus: number,
): void {
  if (asked === undefined) return;
  const key = keyOf(record, asked.field);
  if (key === undefined || key === asked.id) return;
  throw new EnvelopeError(
    context,
    "bad_shape",
    `asked for ${asked.field} ${asked.id}, the portal answered the record of ${asked.field} ${key}`,
    { httpStatus },
  );
}
