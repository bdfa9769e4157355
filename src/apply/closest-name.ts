/** The name a misspelt column most likely meant, by edit distance, for "did you mean" hints. */
import { editDistance } from "../text/edit-distance.js";

/**
 * How many edits a misspelling may be from the name it meant: two, or one in five characters of a
 * long name. Any name is some distance from any other: past this the nearest is no likelier meant
 * than none ("employee_id" is not "user_id" mistyped), and pointing at it misleads.
 */
function closeEnough(name: string): number {
  return Math.max(2, Math.floor(name.length / 5));
}

/**
 * The candidate nearest to `name`, or undefined when none is close; a suffix match
 * (`status` → `product_access_status`) wins.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const suffix = candidates.find((candidate) => candidate.endsWith(`_${name}`));
  if (suffix) return suffix;
  let best: string | undefined;
  let bestDistance = closeEnough(name) + 1;
  for (const candidate of candidates) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
