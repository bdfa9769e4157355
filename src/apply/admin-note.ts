/**
 * The warning for a link that exists with another `user_grp_group_admin` than a row asks for. The
 * interface has no edit of a link, so the link stays as it is and the person is told, whether the
 * local database knew the link (plan.ts) or the portal answered it to a create: a link someone
 * made since the extract, found by the check before the create, or a link made by the portal
 * with another value than the one sent.
 */
import type { CellValue } from "./cell-value.js";

type Body = Readonly<Record<string, CellValue>>;

/**
 * How the link came to be: there before this row (`existing`), made by this row's create
 * (`created`), or found once a run of the same file had sent it before (`found`: that run's create
 * may have made it, or someone else).
 */
export type LinkOrigin = "existing" | "created" | "found";

/** The admin value the row asks for, when it gives one. */
function wantedAdmin(body: Body): number | undefined {
  const wanted = body.user_grp_group_admin;
  return wanted === undefined || wanted === null ? undefined : Number(wanted);
}

function note(origin: LinkOrigin, body: Body, stored: unknown, wanted: number): string {
  const user = body.user_grp_user_id;
  const group = body.user_grp_grp_id;
  const stays = "the interface cannot change a link, so it stays";
  if (origin === "created") {
    return `the portal made the link of user ${user} to group ${group} with user_grp_group_admin ${stored}, not the ${wanted} sent; ${stays}`;
  }
  if (origin === "found") {
    return `user ${user} is in group ${group} with user_grp_group_admin ${stored}, not the ${wanted} asked; ${stays}`;
  }
  return `user ${user} is already in group ${group} with user_grp_group_admin ${stored}; ${stays}`;
}

/** The warning when the stored link's admin value is not the one the row asks for. */
export function adminNote(
  unit: string,
  line: number,
  body: Body,
  stored: unknown,
  origin: LinkOrigin = "existing",
): string | undefined {
  const wanted = wantedAdmin(body);
  if (wanted === undefined) return undefined;
  // A portal may print numbers as text (docs/api.md §8): 1 and "1" are the same value.
  const same = stored !== null && stored !== undefined && Number(stored) === wanted;
  return same ? undefined : `${unit} ${line}: ${note(origin, body, stored ?? null, wanted)}`;
}
