/**
 * Where an offset of a text is, as people count it in an editor: lines and columns from 1, a line
 * ending at "\n". One count for every message that points into a file (the config file's syntax
 * errors and its keys written twice), so they never disagree about a line.
 */

/** The 1-based line and column of `offset` in `text`. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
