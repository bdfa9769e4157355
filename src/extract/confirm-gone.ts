/**
 * Before a full run deletes rows, the portal is asked about them.
 *
 * A full merge makes a table exactly the records staged by the run, so a record the listing did
 * not deliver would be deleted although the portal still has it. The listing is checked
 * (src/api/paginate.ts), but a portal that moves records between pages in a way no count reveals
 * could still hide one. So every key in the table that the run did not receive is looked up by
 * key (`in` criteria, a page of keys per request): what the portal answers is staged again, and
 * only what it does not is gone. In the usual run nothing is missing and this costs no request.
 */
import type { LmsClient } from "../api/client.js";
import { ApiError, NotFoundError } from "../api/errors.js";
import { keyOf } from "../api/key-ranges.js";
import type { Criterion, ListedResource } from "../api/types.js";
import { RESOURCES } from "../resources/registry.js";

/** Fetches the records of `keys` the portal still has; their keys are all among `keys`. */
export async function stillPresent(
  client: LmsClient,
  resource: ListedResource,
  keys: readonly number[],
  batchSize: number,
): Promise<unknown[]> {
  const field = RESOURCES[resource].primaryKey;
  const found: unknown[] = [];
  for (let i = 0; i < keys.length; i += batchSize) {
    const batch = keys.slice(i, i + batchSize);
    const wanted = new Set(batch);
    let records: unknown[];
    try {
      records = await listMatching(client, resource, [
        { column: field, operator: "in", value: batch },
      ]);
    } catch (error) {
      // A portal that does not take `in` (the interface names it, but shows no example) is asked
      // one key at a time with `equal`.
      if (!(error instanceof ApiError) || error instanceof NotFoundError || !refusedCriteria(error))
        throw error;
      records = [];
      for (const key of batch) {
        records.push(
          ...(await listMatching(client, resource, [
            { column: field, operator: "equal", value: key },
          ])),
        );
      }
    }
    // A portal that ignores the criterion answers other records too: only the asked-for count.
    for (const record of records) {
      const key = keyOf(record, field);
      if (key !== undefined && wanted.delete(key)) found.push(record);
    }
  }
  return found;
}

async function listMatching(
  client: LmsClient,
  resource: ListedResource,
  criteria: Criterion[],
): Promise<unknown[]> {
  const records: unknown[] = [];
  for await (const page of client.pages(resource, { criteria })) records.push(...page.records);
  return records;
}

/** A 400 (or a failure envelope) answering the criteria themselves, not the network or the key. */
function refusedCriteria(error: ApiError): boolean {
  return error.httpStatus === 400 || error.httpStatus === 422 || error.code === "ERR_ENVELOPE";
}
