/**
 * A UNION column in a workbook. Its rows hold members of different types, so the column is text
 * (a union has no one number format), but a row whose member is a number is written as a number
 * cell, as a column of that number would be (NaN and digits past a double's as text, see
 * xlsx-numbers.ts): `-5` is a number Excel can sum, not the text "-5". Only a row whose member is
 * text is neutralised against formulas; any other member is its text as it was.
 */
import {
  type DuckDBType,
  type DuckDBUnionType,
  DuckDBUnionValue,
  type DuckDBValue,
} from "@duckdb/node-api";
import { isNumericType } from "../numeric-types.js";
import type { PlainValue } from "../present/column-kind.js";
import { utcText } from "../utc-text.js";
import { holdsText, neutraliseText } from "./formula-injection.js";
import { excelNumber } from "./xlsx-numbers.js";

/** The converter of a union column of type `union` for a workbook cell. */
export function unionCell(
  union: DuckDBUnionType,
  neutraliseFormulas: boolean,
): (value: DuckDBValue) => PlainValue {
  const numbers = new Map<string, (value: DuckDBValue) => PlainValue>();
  union.memberTags.forEach((tag, i) => {
    const member = union.memberTypes[i] as DuckDBType;
    if (isNumericType(member.typeId)) numbers.set(tag, excelNumber(member));
  });
  return (value) => {
    if (value instanceof DuckDBUnionValue && value.value !== null) {
      const number = numbers.get(value.tag);
      if (number) return number(value.value);
    }
    const text = utcText(value);
    return neutraliseFormulas && holdsText(value) ? neutraliseText(text) : text;
  };
}
