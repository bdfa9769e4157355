/**
 * Snapshot days that lost part of their files. A portal's day whose take files were deleted by
 * hand and its other tables' not would be read as that day with no takes: a report of nobody
 * having done anything. Such a day is left out whole, by readers (lake-views.ts), which read the
 * portal as of its latest day still whole, and by the next publish's manifest (manifest.ts),
 * which would otherwise name the day's other files alone and make it look whole to later readers.
 */

/** A portal's snapshot day that lost the files of some tables and kept the others'. */
export interface PartialSnapshot {
  readonly portal: string;
  readonly day: string;
  readonly lost: readonly string[];
}

interface Partition {
  readonly portal: string;
  readonly snapshotDate: string;
  readonly table: string;
}

/**
 * `kept` without the days `gone` took part of, and those days (the ones that kept some files: a
 * day deleted whole was meant to go).
 */
export function withoutPartialDays<T extends Partition>(
  kept: readonly T[],
  gone: readonly Partition[],
): { partitions: T[]; partial: PartialSnapshot[] } {
  const dayOf = (p: Partition) => `${p.portal}\u0000${p.snapshotDate}`;
  const lost = new Map<string, PartialSnapshot>();
  for (const p of gone) {
    const day = lost.get(dayOf(p)) ?? { portal: p.portal, day: p.snapshotDate, lost: [] };
    lost.set(dayOf(p), { ...day, lost: [...day.lost, p.table] });
  }
  const partial = new Map<string, PartialSnapshot>();
  const partitions = kept.filter((p) => {
    const day = lost.get(dayOf(p));
    if (day !== undefined) partial.set(dayOf(p), day);
    return day === undefined;
  });
  return { partitions, partial: [...partial.values()] };
}

/** The days left out as partial, in words: "2026-11-27 of portal north (take files gone)". */
export function partialWords(partial: readonly PartialSnapshot[]): string {
  return partial
    .map(
      ({ portal, day, lost }) =>
        `${day} of portal ${portal} (${[...new Set(lost)].join(", ")} files gone)`,
    )
    .join("; ");
}
