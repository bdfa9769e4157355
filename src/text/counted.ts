/** A count and its noun as a summary line says it: `1 row`, `0 rows`, `300 rows`. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
