/**
 * The comparison operators a list criterion may use (docs/api.md §2, `criterias[].operator`). The
 * client types what it sends from this list and the simulator checks what it receives against
 * it, so both speak exactly the spec's vocabulary.
 */

/** The nine comparison operators of a criterion, as sent on the wire. */
export const OPERATORS = [
  "equal",
  "not_equal",
  "like",
  "in",
  "not_in",
  "greater_than",
  "less_than",
  "greater",
  "lesser",
] as const;

/** One of {@link OPERATORS}. */
export type Operator = (typeof OPERATORS)[number];
