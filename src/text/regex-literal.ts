/**
 * Text put into a regular expression as itself: names from definitions (a report's, a query's)
 * may hold `.` or other characters a pattern would read as operators.
 */

/** The text of a regular expression matching exactly `text`. */
export function regexLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
