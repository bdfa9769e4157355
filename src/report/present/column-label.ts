/**
 * Headers a person reads: the SQL column name `days_overdue` becomes "Days overdue".
 *
 * The workbook, the HTML report and the e-mail body show these labels; CSV and Parquet keep the
 * SQL names because they feed other programs, and the workbook's About sheet lists both.
 * A label given by the query (its header's `-- label` lines, when it has them) wins over the rule.
 */

/** Whole names whose rule-made label would read wrong. */
const NAMES: Readonly<Record<string, string>> = {
  firstname: "First name",
  lastname: "Last name",
  email: "E-mail",
  user_id: "User ID",
  grp_id: "Group ID",
  grp_name: "Group",
  product_id: "Product ID",
  product_title: "Product",
  user_organisation_identifier: "Organisation ID",
};

/** Words written otherwise than in lower case inside a label. */
const WORDS: Readonly<Record<string, string>> = {
  id: "ID",
  ids: "IDs",
  url: "URL",
  pct: "%",
  grp: "group",
  svc: "service",
};

/** The label of SQL column `name`, or the query's own label for it when `labels` has one. */
export function columnLabel(name: string, labels?: ReadonlyMap<string, string>): string {
  const given = labels?.get(name);
  if (given !== undefined) return given;
  const known = NAMES[name];
  if (known !== undefined) return known;
  const words = name
    .split(/_+/)
    .filter((word) => word.length > 0)
    .map((word) => WORDS[word] ?? word);
  if (words.length === 0) return name;
  const [first = "", ...rest] = words;
  const head =
    first === first.toLowerCase() ? first.charAt(0).toUpperCase() + first.slice(1) : first;
  return [head, ...rest].join(" ");
}
