/**
 * The problem of a JSON number past 2^53 (see CellNote `rounded`): JavaScript reads it as the
 * nearest double, so the value the file holds is lost before anything can check it.
 */
export function roundedProblem(column: string, text: string | null): string {
  return `${column} is a JSON number past 2^53 (read as ${text}), which JSON readers round: write it in quotes, as a string`;
}
