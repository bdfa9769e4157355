/**
 * "Did you mean …?" for a mistyped name: the known names within two edits (Levenshtein) or that
 * start with what was typed, closest first.
 */
import { editDistance } from "./edit-distance.js";

/** The names `typed` may have meant, at most three; empty when none is close. */
export function suggestNames(typed: string, known: Iterable<string>): string[] {
  const wanted = typed.toLowerCase();
  return [...known]
    .map((name) => ({ name, d: editDistance(wanted, name.toLowerCase()) }))
    .filter(({ name, d }) => d <= 2 || (wanted.length >= 2 && name.startsWith(wanted)))
    .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
    .slice(0, 3)
    .map(({ name }) => name);
}

/** `; did you mean "a" or "b"?`, or "" when nothing is close. */
export function didYouMean(typed: string, known: Iterable<string>): string {
  const names = suggestNames(typed, known).map((name) => JSON.stringify(name));
  if (names.length === 0) return "";
  const last = names.pop();
  return `; did you mean ${names.length > 0 ? `${names.join(", ")} or ` : ""}${last}?`;
}
