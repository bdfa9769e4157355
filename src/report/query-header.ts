/**
 * The header comment at the top of a query file: title, description and parameters.
 *
 * ```sql
 * -- title: Completion by product and group
 * -- description: One row per product ...
 * --   (lines indented after "--" continue the previous entry)
 * -- param today date = today: Reference day.
 * -- param group_id int = null: Only this group and its subgroups.
 * -- param weeks int = 12 (1..520): How many weeks.
 * -- param product_ids int_list: Required; no default.
 * -- label days_overdue: Days overdue
 * -- people: grouped
 * ```
 *
 * A parameter's default is written the way it would be given on the command line (`null` = no
 * value). An `int` parameter may name the values it takes, `(MIN..MAX)`, `(MIN..)` or `(..MAX)`,
 * before the colon: a value outside is refused as bad input before anything runs, where the query
 * would otherwise fail as it runs (a cast to INTEGER, an `error()` guard) or run for very long.
 * A label names a result column for people (workbook headers, the HTML report, the e-mail) where
 * the rule of `columnLabel` would read wrong. `people: grouped` says that without group_id the
 * query has only the people linked to a group, not everyone in the data, so that the count of
 * people it leaves out as gone (left-people-note.ts) is of those. The header is the leading run of
 * `--` lines; the SQL follows it.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { QUERY_PEOPLE, type QueryParam, type QueryPeople } from "./model.js";
import { emptyMeansNoValue, parseParamValue } from "./params.js";

/** What a header declares; title and description are undefined when absent. */
export interface QueryHeader {
  title: string | undefined;
  description: string | undefined;
  params: QueryParam[];
  /** Column labels by SQL column name, from `-- label NAME: Label` lines. */
  labels: Map<string, string>;
  /** Whom the query has without group_id, from a `-- people:` line. */
  people: QueryPeople;
}

const PARAM_TYPES = ["int", "number", "string", "date", "int_list", "string_list", "bool"] as const;
const PARAM_LINE =
  /^param\s+(\S+)\s+(\S+?)(?:\s*=\s*(.*?))?(?:\s*\(\s*([^()]*?)\s*\.\.\s*([^()]*?)\s*\))?\s*:\s+(.+)$/;
/** A bound of a range: a whole number, or nothing for an open end. */
const BOUND = /^(?:[+-]?\d+)?$/;
const LABEL_LINE = /^label\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(\S.*)$/;
/** `$name` in DuckDB; a leading underscore is kept for names the exporter binds itself. */
const PARAM_NAME = /^[a-z][a-z0-9_]*$/;

function isParamType(value: string): value is QueryParam["type"] {
  return (PARAM_TYPES as readonly string[]).includes(value);
}

/** Where a continuation line (indented after "--") adds its text: the entry just read. */
interface Continuation {
  append(more: string): void;
}

/**
 * Parses the header of `text` (the file `file`, used in messages). Throws a bad-input error naming
 * the file and line for a malformed entry, an unknown key or type, or a repeated parameter.
 */
export function parseQueryHeader(text: string, file: string): QueryHeader {
  const header: QueryHeader = {
    title: undefined,
    description: undefined,
    params: [],
    labels: new Map(),
    people: "everyone",
  };
  let last: Continuation | undefined;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? "").trim();
    if (line === "" && header.title === undefined && header.params.length === 0) continue;
    if (!line.startsWith("--")) break;
    const raw = line.slice(2);
    const body = raw.trim();
    if (body !== "" && /^\s{2,}/.test(raw) && last) {
      last.append(body);
      continue;
    }
    last = body === "" ? undefined : readEntry(header, body, `${file}:${index + 1}`);
  }
  return header;
}

/**
 * Adds the entry on one header line (`where` is its file and line) to `header`; answers where a
 * continuation line would go, undefined when none may follow it.
 */
function readEntry(header: QueryHeader, body: string, where: string): Continuation | undefined {
  const keyMatch = /^(title|description):\s*(.*)$/.exec(body);
  if (keyMatch) {
    const key = keyMatch[1] as "title" | "description";
    if (header[key] !== undefined)
      throw new LmsExportError("bad-input", `${where}: ${key} is given twice`);
    header[key] = keyMatch[2] ?? "";
    return {
      append: (more) => {
        header[key] = `${header[key] ?? ""} ${more}`.trim();
      },
    };
  }
  if (body.startsWith("param ")) {
    const param = parseParamLine(body, where);
    if (header.params.some((p) => p.name === param.name)) {
      throw new LmsExportError("bad-input", `${where}: parameter ${param.name} is declared twice`);
    }
    header.params.push(param);
    return {
      append: (more) => {
        param.description = `${param.description} ${more}`;
      },
    };
  }
  if (body.startsWith("label ")) parseLabelLine(body, where, header.labels);
  // One word is an entry, a misspelt one refused; words are a note, as a header's notes were
  // before the entry existed ("-- people: the sales team").
  if (/^people\s*:\s*\S+\s*$/.test(body)) header.people = parsePeopleLine(body, where);
  // Any other comment line in the header is a note for readers of the SQL, not an entry.
  return undefined;
}

function parseLabelLine(body: string, where: string, labels: Map<string, string>): void {
  const match = LABEL_LINE.exec(body);
  if (!match) {
    throw new LmsExportError(
      "bad-input",
      `${where}: a label line reads "label COLUMN: Label" (got ${JSON.stringify(body)})`,
    );
  }
  const [, column = "", label = ""] = match;
  if (labels.has(column))
    throw new LmsExportError("bad-input", `${where}: column ${column} is labelled twice`);
  labels.set(column, label.trim());
}

function parsePeopleLine(body: string, where: string): QueryPeople {
  const value = body.replace(/^people\s*:/, "").trim();
  const people = QUERY_PEOPLE.find((known) => known === value);
  if (people === undefined) {
    throw new LmsExportError(
      "bad-input",
      `${where}: a people line reads "people: ${QUERY_PEOPLE.join('" or "people: ')}" (got ${JSON.stringify(body)})`,
    );
  }
  return people;
}

function parseParamLine(body: string, where: string): QueryParam {
  const match = PARAM_LINE.exec(body);
  if (!match) {
    throw new LmsExportError(
      "bad-input",
      `${where}: a parameter line reads "param NAME TYPE [= DEFAULT] [(MIN..MAX)]: description" (got ${JSON.stringify(body)})`,
    );
  }
  const [, name = "", type = "", rawDefault, min, max, description = ""] = match;
  if (!PARAM_NAME.test(name)) {
    throw new LmsExportError(
      "bad-input",
      `${where}: parameter name ${JSON.stringify(name)} must be lower case letters, digits and _ and start with a letter`,
    );
  }
  if (!isParamType(type)) {
    throw new LmsExportError(
      "bad-input",
      `${where}: parameter ${name} has unknown type ${JSON.stringify(type)}; use one of ${PARAM_TYPES.join(", ")}`,
    );
  }
  const param: QueryParam = { name, type, description: description.trim() };
  if (rawDefault !== undefined) param.default = headerDefault(rawDefault, type);
  if (min !== undefined || max !== undefined) addRange(param, min ?? "", max ?? "", where);
  return param;
}

/**
 * A default as the header writes it: `null`, or for a type whose empty value means "no value"
 * (not text, not a list) nothing at all, is null; anything else is parsed like a command-line value,
 * wholly in one pair of quotes read without them: `= ""` is the empty text, not two quote marks (a
 * filter `$status = ''` then matched nothing, and the report came back empty without a word).
 */
function headerDefault(raw: string, type: QueryParam["type"]): string | null {
  if (raw === "null") return null;
  // One pair around the whole value, none inside: `"Sales","HR"` is not one quoted text.
  const quoted = /^"([^"]*)"$|^'([^']*)'$/.exec(raw);
  const text = quoted ? (quoted[1] ?? quoted[2] ?? "") : raw;
  return emptyMeansNoValue(type) && text.trim() === "" ? null : text;
}

/**
 * Sets `param`'s bounds from a `(MIN..MAX)` of its line (either may be empty: no bound), and
 * checks its default against them, so that a default the query refuses fails on loading.
 */
function addRange(param: QueryParam, min: string, max: string, where: string): void {
  const fail = (problem: string) =>
    new LmsExportError("bad-input", `${where}: parameter ${param.name}: ${problem}`);
  if (param.type !== "int") {
    throw fail(`only int parameters take a range (MIN..MAX); this one is ${param.type}`);
  }
  if (!BOUND.test(min) || !BOUND.test(max) || (min === "" && max === "")) {
    throw fail(
      `a range reads (MIN..MAX), (MIN..) or (..MAX) with whole numbers (got (${min}..${max}))`,
    );
  }
  const bound = (text: string) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) {
      throw fail(`a bound of its range must be within ±${Number.MAX_SAFE_INTEGER} (got ${text})`);
    }
    return value;
  };
  if (min !== "") param.min = bound(min);
  if (max !== "") param.max = bound(max);
  if (param.min !== undefined && param.max !== undefined && param.min > param.max) {
    throw fail(`the range (${min}..${max}) holds no value: MIN is above MAX`);
  }
  if (typeof param.default === "string") {
    try {
      parseParamValue(param, param.default, "its default", new Date(0));
    } catch (error) {
      if (error instanceof LmsExportError) {
        throw new LmsExportError("bad-input", `${where}: ${error.message}`);
      }
      throw error;
    }
  }
}
