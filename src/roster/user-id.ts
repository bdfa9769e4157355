/** A `user_id` cell as the portal's integer id, or why it is not one. */
import { quotedCell } from "../tabular/quoted-cell.js";
import { shownText } from "../text/filled-cell.js";

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
// Spreadsheets and Parquet DOUBLE columns write whole numbers as `1001.0`: still the id 1001.
const WHOLE = /^[+-]?\d+(?:\.0+)?$/;

export type UserIdCheck = { readonly id: bigint } | { readonly problem: string };

export function parseUserId(text: string | null): UserIdCheck {
  // A zero-width space copied in with the id is invisible: "not a whole number" could not be acted
  // on, and the id the sheet shows is the one meant, as with spaces around it.
  const trimmed = text === null ? "" : shownText(text).trim();
  if (trimmed === "") return { problem: "user_id is empty" };
  if (!WHOLE.test(trimmed)) {
    return { problem: `user_id ${quotedCell(text ?? "")} is not a whole number` };
  }
  const id = BigInt(trimmed.replace(/\.0+$/, ""));
  if (id > MAX || id < MIN) return { problem: `user_id ${quotedCell(trimmed)} is too large` };
  return { id };
}
