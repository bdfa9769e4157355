/**
 * A list that could not be read exactly: its answers changed between pages and the key-range
 * re-read could not settle them. The run fails rather than store a list with records missing;
 * nothing is merged, so the previous data stay.
 */
export class InexactListError extends Error {
  override name = "InexactListError";
  readonly code = "ERR_INEXACT_LIST";
  /** Names the list, e.g. `listGroups (/api-v2/grp/get_all)`. */
  readonly label: string;

  constructor(label: string, reason: string) {
    super(`${label}: the list cannot be read exactly: ${reason}`);
    this.label = label;
  }
}
