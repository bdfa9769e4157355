/** The name a misspelt column most likely meant, by edit distance, for "did you mean" hints. */
import { editDistance } from "../text/edit-distance.js";

/** The candidate nearest to `name`; a suffix match (`status` → `product_access_status`) wins. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const suffix = candidates.find((candidate) => candidate.endsWith(`_${name}`));
  if (suffix) return suffix;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
