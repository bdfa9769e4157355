/**
 * The fault of a portal that prints some dates in a form no parser should guess at: records whose
 * primary key is a multiple of `every` get their first non-null date replaced by an impossible
 * day-first text. A client must keep such a record aside with the reason, not guess.
 */
import { RESOURCES } from "../resources/registry.js";
import type { ResourceName } from "../resources/types.js";

export const UNREADABLE_DATE = "31/02/2026 25:61";

/** The success body `text` of an answer about `resource`, with the fault applied. */
export function spoilDates(
  text: string,
  resource: ResourceName | undefined,
  every: number,
): string {
  // An empty body (a missing id answered with nothing, see faults.ts) has no dates to spoil.
  if (every < 1 || resource === undefined || text === "") return text;
  const spec = RESOURCES[resource];
  const dates = spec.fields.filter((field) => field.type === "datetime").map((field) => field.name);
  const answer = JSON.parse(text) as { result?: unknown };
  const records = Array.isArray(answer.result) ? answer.result : [answer.result];
  for (const record of records) {
    if (typeof record !== "object" || record === null) continue;
    const fields = record as Record<string, unknown>;
    if (Number(fields[spec.primaryKey]) % every !== 0) continue;
    const name = dates.find((date) => fields[date] !== null && fields[date] !== undefined);
    if (name !== undefined) fields[name] = UNREADABLE_DATE;
  }
  return JSON.stringify(answer);
}
