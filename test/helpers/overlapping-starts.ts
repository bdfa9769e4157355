/**
 * The starts a listing asks for (src/api/paginate.ts): page one at 0, then each page starts on
 * the last record of the page before, for as long as a page holds a record beyond that one.
 */
export function overlappingStarts(total: number, size: number): number[] {
  const starts = [0];
  for (let start = size - 1; start + 1 < total; start += size - 1) starts.push(start);
  return starts;
}

/**
 * Every start a listing that holds still requests: its pages, then, for a list of several pages,
 * page one again, which shows the list kept its order.
 */
export function requestedStarts(total: number, size: number): number[] {
  const starts = overlappingStarts(total, size);
  return starts.length > 1 ? [...starts, 0] : starts;
}
