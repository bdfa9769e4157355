/**
 * Numbers as an Excel cell can hold them. A cell's number is a finite double:
 *
 * - `<v>NaN</v>` or `<v>Infinity</v>` makes Excel offer to repair the file and other readers
 *   (openpyxl) refuse it, so a DOUBLE or FLOAT that is NaN or infinite becomes a text cell with
 *   the word the CSV has (`nan`, `inf`, `-inf`: non-finite-text.ts), as DuckDB's `infinity` dates do.
 * - A whole number past 2^53 has no double of its own (9007199254740993 reads as
 *   9007199254740992: a person's id becomes another's), and a DECIMAL with more digits than a
 *   double keeps loses the last ones. Such a value becomes a text cell with every digit DuckDB
 *   holds, as the CSV prints it: Excel keeps 15 significant digits, so no number cell could. A
 *   value whose double reads back as the same decimal digits stays a number.
 *
 * The CSV and Parquet files keep DuckDB's own values either way.
 */
import { DuckDBDecimalType, type DuckDBType, type DuckDBValue } from "@duckdb/node-api";
import { type PlainValue, toNumber } from "../present/column-kind.js";
import { type ExactDecimal, exactDecimal } from "../present/exact-decimal.js";
import { nonFiniteText } from "../present/non-finite-text.js";

/** Beyond this a double no longer holds every whole number: 2^53 + 1 reads as 2^53. */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A decimal literal, exponent allowed ("-1.5e-7"): sign, digits, fraction digits, exponent. */
const LITERAL = /^(-?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/;

/**
 * `literal` as "sign digits e exponent" with no leading or trailing zeros in the digits, so two
 * spellings of one value ("0.050", "5e-2") compare equal.
 */
function canonical(literal: string): string {
  const match = LITERAL.exec(literal);
  if (!match) return literal;
  const fraction = match[3] ?? "";
  let digits = `${match[2]}${fraction}`.replace(/^0+/, "");
  let exponent = Number(match[4] ?? 0) - fraction.length;
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exponent += 1;
  }
  return digits === "" ? "0" : `${match[1]}${digits}e${exponent}`;
}

/** A whole number: a number cell up to 2^53 - 1, past it its digits. */
function wholeCell(value: bigint): PlainValue {
  return value > SAFE || value < -SAFE ? value.toString() : Number(value);
}

/**
 * A DECIMAL: the double nearest to it when that double reads back as the same digits (0.05 does;
 * 1234567.123456789012345678 does not) and is at most 2^53, else its digits.
 */
function decimalCell(decimal: ExactDecimal): PlainValue {
  const limit = SAFE * 10n ** BigInt(decimal.scale);
  if (decimal.units > limit || decimal.units < -limit) return decimal.literal;
  const number = Number(decimal.literal);
  return canonical(String(number)) === canonical(decimal.literal) ? number : decimal.literal;
}

/** The converter of a numeric column of DuckDB type `type` for a workbook cell. */
export function excelNumber(type: DuckDBType): (value: DuckDBValue) => PlainValue {
  if (type instanceof DuckDBDecimalType) return (value) => decimalCell(exactDecimal(value));
  return (value) => {
    // BIGINT, HUGEINT, UBIGINT and UHUGEINT arrive as bigint.
    if (typeof value === "bigint") return wholeCell(value);
    const number = toNumber(value);
    return typeof number === "number" && !Number.isFinite(number) ? nonFiniteText(number) : number;
  };
}
