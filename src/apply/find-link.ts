/**
 * Whether the portal has the link of a user in a group, asked before every create (send-row.ts):
 * a link made twice cannot be undone, as the interface has no delete of a link.
 *
 * Two open points of the interface (docs/api.md §8) decide how it is asked. How several criteria
 * combine is not said: were they ORed, a page of the user's or the group's links could leave out
 * the one sought. So the portal is asked for the user's links alone, which reads the same either
 * way, and the answer is filtered here (a portal that ignored the criterion costs pages, not a
 * wrong answer). Nor is the order of a list promised: a portal that answers each page in an order
 * of its own skips some links between pages and repeats others, so one reading of a user's links
 * past the first page can miss the one sought. A reading proves a link absent only once every
 * link the portal counts (`total`) was seen; until then the links are read again, and what each
 * reading saw adds up, unless the count changed meanwhile (then the list itself did).
 */
import type { LmsClient } from "../api/client.js";
import { InexactListError } from "../api/inexact-list-error.js";
import type { ApiRecord } from "../resources/record-types.js";

/**
 * Links asked for per page: the interface's default `limit`. The largest page a portal serves is
 * an open point (docs/api.md §8) and some refuse larger ones outright (HTTP 400), which would fail
 * every create; apply, unlike extract, has no --page-size to lower.
 */
const LINK_PAGE = 10;

/**
 * Readings of a user's links before giving up. A list in a stable order needs one; in a new order
 * per page, each reading of 3 pages of a user's 24 links misses a given link with a chance of
 * about 0.28, so 20 readings leave one of them unseen less than once in a billion.
 */
const READINGS = 20;

type Link = ApiRecord<"user_grp">;

/** The link of `userId` in `groupId` if the portal has it; InexactListError if it cannot tell. */
export async function findLink(
  client: LmsClient,
  userId: number,
  groupId: number,
): Promise<Link | undefined> {
  const criterias = [{ column: "user_grp_user_id", operator: "equal", value: userId }] as const;
  let seen = new Set<string>();
  let total: number | undefined;
  for (let reading = 1; reading <= READINGS; reading++) {
    for (let start = 0; ; ) {
      const answer = await client.listUserGroups({
        start,
        limit: LINK_PAGE,
        criterias: [...criterias],
      });
      const found = answer.result.find(
        (link) =>
          Number(link.user_grp_user_id) === userId && Number(link.user_grp_grp_id) === groupId,
      );
      if (found) return found;
      // Links seen before the count changed may be gone: they prove nothing any more.
      if (answer.total !== total) seen = new Set();
      total = answer.total;
      for (const link of answer.result) seen.add(String(link.user_grp_id));
      // A short page moves the offset by what it held: the next page starts where this one ended.
      start += answer.result.length;
      if (answer.result.length === 0 || start >= answer.total) break;
    }
    // Every link the user has was seen, and none is the one sought: it does not exist.
    if (seen.size >= (total ?? 0)) return undefined;
  }
  throw new InexactListError(
    `listUserGroups (links of user ${userId})`,
    `after ${READINGS} readings ${seen.size} of the ${total} links the portal counts were seen, as it answers them in a new order each time; the link to group ${groupId} was not created, so that it cannot be made twice: run the same command again later`,
  );
}
