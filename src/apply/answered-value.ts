/**
 * A value the portal answered to a write, as text in one shape whatever shape it came in: a
 * portal may answer a date as ISO text with an offset, as `YYYY-MM-DD HH:MM:SS` or as epoch
 * seconds (a number or digits), and an integer as a string. The local table takes this text
 * (upsert-answer.ts), and a rerun compares an earlier answer with the local record through it
 * (plan.ts): compared raw, epoch seconds never equal a date and the row would be sent again.
 */
import { coerceDateTime, coerceInt, coerceText } from "../encode/coerce-value.js";
import type { FieldSpec } from "../resources/types.js";
import { isoFromMicros } from "./cell-value.js";

/** The value as text DuckDB casts to the column type; undefined when the portal's value is unusable. */
export function answeredText(field: FieldSpec, value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case "int":
    case "flag": {
      const n = coerceInt(value);
      return n === undefined ? undefined : n === null ? null : String(n);
    }
    case "datetime": {
      const micros = coerceDateTime(value);
      return micros === undefined
        ? undefined
        : micros === null
          ? null
          : isoFromMicros(micros).replace("Z", "");
    }
    case "string":
    case "unknown":
      return coerceText(value) ?? undefined;
    default:
      return undefined;
  }
}
