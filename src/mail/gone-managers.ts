/**
 * The managers a split report mails nothing to because every person of theirs was left out as
 * gone (excluded_statuses: left the company, suspended...). The run counts the people left out
 * (left-people-note.ts), but a manager all of whose people are among them simply gets no message
 * this time, and the count does not say who: named, the operator can tell them, or find that the
 * roster marks people as gone by mistake.
 *
 * Found by asking each query with the split column again with no one left out: the addresses it
 * then names that the report's rows do not. A manager the roster marks as gone is no manager
 * either (compliance.sql), so an address that only gone people of the roster have is not one of
 * these: it lost its people by leaving, not they.
 */
import { type DuckDBConnection, LIST, listValue, VARCHAR } from "@duckdb/node-api";
import { EXCLUDED_STATUSES } from "../report/left-people-note.js";
import type { LeftPeopleNote } from "../report/model.js";
import type { ParamValue } from "../report/params.js";
import { trimmedSql } from "../text/white-space.js";
import { normaliseAddress } from "./address.js";
import { type SplitSource, splitAddressesOf } from "./split.js";

/** How many such managers a warning names before counting the rest. */
export const GONE_MANAGERS_LISTED = 5;

/**
 * The addresses, sorted, that the queries of `sources` would mail under `column` if no one were
 * left out as gone, but do not with the report's own statuses (`addresses`). None when nobody was
 * left out (`left`).
 */
export async function managersAllGone(
  connection: DuckDBConnection,
  sources: Iterable<SplitSource>,
  column: string,
  found: { addresses: readonly string[]; left: readonly LeftPeopleNote[] },
): Promise<string[]> {
  if (!found.left.some((note) => note.left.total > 0)) return [];
  const everyone: SplitSource[] = [];
  let statuses: ParamValue | undefined;
  for (const { bound } of sources) {
    const excluded = bound.params.get(EXCLUDED_STATUSES);
    if (excluded?.type !== "string_list" || excluded.text === "") continue;
    statuses ??= excluded;
    const values = { ...bound.values, [EXCLUDED_STATUSES]: listValue([]) };
    everyone.push({ bound: { ...bound, values }, table: undefined });
  }
  if (statuses === undefined) return [];
  const all = await splitAddressesOf(connection, everyone, column);
  const mailed = new Set(found.addresses);
  const leavers = await goneAddresses(connection, statuses);
  return all.addresses.filter((address) => !mailed.has(address) && !leavers.has(address));
}

/** The addresses that only people the roster marks with one of `statuses` have. */
async function goneAddresses(
  connection: DuckDBConnection,
  statuses: ParamValue,
): Promise<Set<string>> {
  // Trimmed as the queries trim excluded_statuses (tabs and byte-order marks too, which DuckDB's
  // trim() keeps): a status "leaver\t" they leave out must make its address a leaver's here.
  const email = trimmedSql("email");
  const reader = await connection.runAndReadAll(
    `SELECT any_value(email) FROM "user"
     WHERE nullif(${email}, '') IS NOT NULL
     GROUP BY lower(${email})
     HAVING bool_and(coalesce(lower(${trimmedSql("user_status")}) IN (
       SELECT lower(${trimmedSql("s.status")}) FROM unnest($statuses) AS s(status)), false))`,
    { statuses: statuses.value },
    { statuses: LIST(VARCHAR) },
  );
  return new Set(reader.getRowsJS().map(([email]) => normaliseAddress(String(email))));
}
