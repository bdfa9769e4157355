/**
 * A query parameter as the reader of a report sees it: what it means, from its header's
 * description, and the value in words. A manager reading "due_days = 30; product_ids = (none)"
 * learns nothing; "Days after access is granted by which a product must be completed: 30;
 * Required products: each product a person has access to" says what the figures assume.
 */
import type { QueryParam } from "../model.js";
import { columnLabel } from "./column-label.js";

/** One setting of a report, for reading: `name` stays for those who pass it with `--param`. */
export interface SettingText {
  readonly name: string;
  readonly label: string;
  readonly value: string;
}

/** `(empty = every product)` in a description: what an empty value means. */
const EMPTY_MEANS = /\s*\(empty = ([^)]*)\)/;

/**
 * A list's items with a space after each comma: "inactive, suspended, leaver", where the command
 * line's "inactive,suspended,leaver" ran into one long word that did not wrap. An item holding a
 * comma itself (a report definition's ["Left, voluntary", "gone"]) is quoted, else it would read
 * as two items.
 */
function listWords(items: readonly string[]): string {
  return items.map((item) => (item.includes(",") ? JSON.stringify(item) : item)).join(", ");
}

/**
 * The setting `param` with its value as text (`""` for none); a list by its `items` when known,
 * else by the items of its text.
 */
export function settingText(
  param: Pick<QueryParam, "name" | "description"> & {
    type?: QueryParam["type"];
    items?: readonly string[];
  },
  value: string,
): SettingText {
  const description = param.description.trim().replace(/\.$/, "");
  const empty = EMPTY_MEANS.exec(description);
  const label = description.replace(EMPTY_MEANS, "") || columnLabel(param.name);
  const isList = param.type === "int_list" || param.type === "string_list";
  const words = isList ? listWords(param.items ?? value.split(",")) : value;
  const shown = value !== "" ? words : (empty?.[1] ?? "(none)");
  return { name: param.name, label, value: shown };
}
