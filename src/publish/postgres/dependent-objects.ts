/**
 * What to tell a user whose publish PostgreSQL refused because an object of their own depends on
 * a published table: a view (`CREATE VIEW public.v_take AS SELECT * FROM lms.take`), a policy on
 * a table of their own naming one (`… USING (user_id IN (SELECT user_id FROM lms."user"))`), a
 * foreign key pointing at one. A publish replaces its tables, and PostgreSQL will not drop a
 * table another object depends on; its HINT (DROP … CASCADE) would drop those objects for good.
 */

/** PostgreSQL's SQLSTATE for a DROP refused because another object depends on it. */
export const DEPENDENT_OBJECTS_STILL_EXIST = "2BP01";

/** What PostgreSQL's DETAIL calls an object, as a user names it (its first word otherwise). */
const KINDS: readonly [prefix: string, kind: string, plural: string][] = [
  ["materialized view ", "materialized view", "materialized views"],
  ["view ", "view", "views"],
  ["policy ", "policy", "policies"],
  ["constraint ", "foreign key", "foreign keys"],
];

/** The kind of each object PostgreSQL's DETAIL names ("view v_take depends on table lms.take"). */
function dependentKinds(detail: string): { kind: string; plural: string }[] {
  return detail
    .split("\n")
    .filter((line) => line.includes(" depends on "))
    .map((line) => {
      const known = KINDS.find(([prefix]) => line.startsWith(prefix));
      if (known) return { kind: known[1], plural: known[2] };
      const word = line.split(" ")[0] ?? "object";
      return { kind: word, plural: `${word}s` };
    });
}

/**
 * `text` (PostgreSQL's message) with the objects its DETAIL names, and what to do, naming their
 * kind (a view, a policy; "object" when of several kinds or none named).
 */
export function dependentObjectsText(text: string, detail: unknown): string {
  const details = typeof detail === "string" ? detail : "";
  const which = details ? ` (${details.replaceAll("\n", "; ")})` : "";
  const kinds = dependentKinds(details);
  const same = new Set(kinds.map((k) => k.kind)).size === 1 ? kinds[0] : undefined;
  const kind = same?.kind ?? "object";
  const article = /^[aeiou]/.test(kind) ? "an" : "a";
  const drop =
    kinds.length === 1
      ? `drop that ${kind} before publishing and make it again after it`
      : `drop those ${same?.plural ?? "objects"} before publishing and make them again after it`;
  return `${text}${which}: a publish replaces its tables, which PostgreSQL refuses while ${same ? `${article} ${kind}` : "another object"} depends on one; ${drop}`;
}
