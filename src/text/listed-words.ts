/** "a", "a and b", "a, b and c" (or "a, b or c"): words as a sentence lists them. */
export function listed(items: readonly string[], last = "and"): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`;
}
