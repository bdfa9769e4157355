/**
 * A full run replaces each table with what it fetched. When a resource that has rows answers with
 * none at all, a glitch (a key that lost a permission, a portal half-restarted) is far likelier
 * than every record having been deleted, so the run stops instead of emptying the table;
 * `--allow-empty` accepts it.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { TableSize } from "../load/table-sizes.js";
import type { ExtractedName } from "../resources/registry.js";

/** Throws for the first resource whose table has rows while nothing was staged for it. */
export function refuseEmptying(sizes: ReadonlyMap<ExtractedName, TableSize>): void {
  for (const [resource, { rows, staged }] of sizes) {
    if (staged === 0 && rows > 0) {
      throw new LmsExportError(
        "refused",
        `${resource}: the portal answered no records but the table holds ${rows}; nothing was changed. If the portal really is empty now, run again with --allow-empty`,
      );
    }
  }
}
