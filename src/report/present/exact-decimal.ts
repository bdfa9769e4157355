/**
 * A DECIMAL value as DuckDB holds it, for the outputs that show values as text (the HTML report
 * and the mail). DuckDB hands a DECIMAL over as a whole number of units of 10^-scale; read as a
 * double it keeps about 15 significant digits, so 12345678901234567.89 showed as
 * 12,345,678,901,234,568.00. Kept as those units, every digit shown is one the database holds.
 */
import type { DuckDBDecimalValue, DuckDBValue } from "@duckdb/node-api";

export class ExactDecimal {
  /** `units` / 10^`scale` is the value. */
  constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}

  /**
   * The value as a decimal literal ("-0.05"): Intl.NumberFormat groups and rounds such a string
   * on its decimal digits, with no double in between.
   */
  get literal(): `${number}` {
    const negative = this.units < 0n;
    const digits = (negative ? -this.units : this.units).toString().padStart(this.scale + 1, "0");
    const whole = digits.slice(0, digits.length - this.scale);
    const fraction = this.scale === 0 ? "" : `.${digits.slice(digits.length - this.scale)}`;
    return `${negative ? "-" : ""}${whole}${fraction}` as `${number}`;
  }

  /** The literal: an identifier column shows its digits as they are. */
  toString(): string {
    return this.literal;
  }
}

/** A DECIMAL column's value (DuckDB's node API reads every width as a DuckDBDecimalValue). */
export function exactDecimal(value: DuckDBValue): ExactDecimal {
  const decimal = value as DuckDBDecimalValue;
  return new ExactDecimal(decimal.value, decimal.scale);
}
