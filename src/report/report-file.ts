/**
 * Validation of one report definition file (`reports/NAME.json`): its shape (zod) and what it
 * refers to (queries, parameters, the file name pattern). Every error names the file and the field.
 */
import { z } from "zod";
import { REPORT_FORMATS } from "../config/report-formats.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { mailBlockSchema, subjectProblem } from "../mail/mail-block.js";
import { describeDefinitionIssues } from "./definition-issues.js";
import { ChartJson, type ChartSpec, chartShapeProblem } from "./html/chart-spec.js";
import type { BrokenDefinition, QueryDef, QueryParam, ReportDef } from "./model.js";
import { parseParamValue } from "./params.js";

const ParamJson = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);

const Format = z.enum(REPORT_FORMATS);

const ReportJson = z.strictObject({
  title: z.string().trim().min(1, "must be a non-empty text"),
  description: z.string().trim().min(1, "must be a non-empty text"),
  queries: z.array(z.string().min(1)).min(1, "must name at least one query"),
  formats: z.array(Format).min(1, "must name at least one format"),
  params: z.record(z.string(), ParamJson).default({}),
  fileName: z.string().min(1, "must be a non-empty file name pattern"),
  charts: z.array(ChartJson).default([]),
  mail: mailBlockSchema(Format).optional(),
  csvBom: z.boolean().default(false),
});

/** Placeholders a file name pattern may use. */
export const FILE_NAME_PLACEHOLDERS = ["date", "today", "time", "report"] as const;

/** Why `pattern` is not a valid file name pattern, or undefined when it is. */
export function fileNamePatternProblem(pattern: string): string | undefined {
  for (const match of pattern.matchAll(/\{([^}]*)\}/g)) {
    const name = match[1] ?? "";
    if (!(FILE_NAME_PLACEHOLDERS as readonly string[]).includes(name)) {
      return `unknown placeholder {${name}}; use ${FILE_NAME_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}`;
    }
  }
  const literal = pattern.replace(/\{[^}]*\}/g, "");
  // ASCII only: the name is an attachment's name in every mail client and a file on Windows
  // shares, and earlier runs' files are found by matching the names read back from the folder,
  // where "ü" can come back as two characters (u and an accent), so a name would miss itself.
  const other = [...literal].find((char) => !/^[A-Za-z0-9._-]$/.test(char));
  if (other !== undefined || literal.startsWith(".")) {
    const which = other === undefined ? "" : `; ${JSON.stringify(other)} is not one of them`;
    return `may hold only ASCII letters (a-z, A-Z), digits, '.', '-', '_' and placeholders, and must not start with '.' (no folders)${which}`;
  }
  return undefined;
}

/** Throws the bad-input error for `field` of the definition file being checked. */
type Fail = (field: string, message: string) => never;

type ReportFields = z.output<typeof ReportJson>;

/** A parameter some query of the report declares, with the query that declared it first. */
type DeclaredParams = Map<string, { param: QueryParam; query: string }>;

/**
 * Parses and checks `text`, the definition `file` of report `name`, against the loaded queries.
 */
export function parseReportFile(
  text: string,
  context: {
    name: string;
    file: string;
    queries: ReadonlyMap<string, QueryDef>;
    /** Definitions that could not be loaded, so that one this report uses is named as such. */
    broken?: ReadonlyMap<string, BrokenDefinition>;
  },
): ReportDef {
  const { name, file, queries } = context;
  const fail: Fail = (field, message) => {
    throw new LmsExportError("bad-input", `${file}: field ${field}: ${message}`);
  };
  const def = parseFields(text, file);
  const declared = checkQueries(def.queries, { queries, broken: context.broken }, fail);
  checkParams(def.params, declared, file, fail);
  const problem = fileNamePatternProblem(def.fileName);
  if (problem) fail("fileName", problem);
  if (new Set(def.formats).size !== def.formats.length) fail("formats", "lists a format twice");
  checkCharts(def.charts, def.queries, fail);
  if (def.mail !== undefined) checkMailBlock(def.mail, def.queries, fail);
  return reportDef(def, name, file);
}

/** The fields of each object of a definition, named when one holds a field it does not take. */
const KNOWN_FIELDS = {
  "": Object.keys(ReportJson.shape),
  mail: Object.keys(ReportJson.shape.mail.unwrap().shape),
};

/** The JSON of `text` checked against the shape of a definition; every issue is reported at once. */
function parseFields(text: string, file: string): ReportFields {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LmsExportError("bad-input", `${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = ReportJson.safeParse(json);
  if (!parsed.success) {
    const problems = describeDefinitionIssues(parsed.error.issues, json, KNOWN_FIELDS);
    throw new LmsExportError("bad-input", `${file}: ${problems}`);
  }
  return parsed.data;
}

/**
 * Each named query exists, and queries sharing a parameter agree on its type (the report gives
 * them one value); answers the parameters the queries declare.
 */
function checkQueries(
  names: readonly string[],
  known: {
    queries: ReadonlyMap<string, QueryDef>;
    broken: ReadonlyMap<string, BrokenDefinition> | undefined;
  },
  fail: Fail,
): DeclaredParams {
  const { queries, broken } = known;
  const declared: DeclaredParams = new Map();
  names.forEach((queryName, index) => {
    const query = queries.get(queryName);
    const unloaded = broken?.get(queryName);
    if (!query && unloaded?.kind === "query") {
      fail(`queries[${index}]`, `query ${queryName} cannot be loaded: ${unloaded.error.message}`);
    }
    if (!query) {
      fail(
        `queries[${index}]`,
        `unknown query ${JSON.stringify(queryName)}; known: ${[...queries.keys()].join(", ")}`,
      );
    }
    for (const param of query.params) {
      const seen = declared.get(param.name);
      if (seen && seen.param.type !== param.type) {
        fail(
          `queries[${index}]`,
          `query ${queryName} declares parameter ${param.name} as ${param.type} but ${seen.query} as ${seen.param.type}`,
        );
      }
      declared.set(param.name, { param, query: queryName });
    }
  });
  return declared;
}

/** Each value the definition gives is for a declared parameter and valid for its type. */
function checkParams(
  params: ReportFields["params"],
  declared: DeclaredParams,
  file: string,
  fail: Fail,
): void {
  for (const [key, value] of Object.entries(params)) {
    const entry = declared.get(key);
    if (!entry) {
      fail(
        `params.${key}`,
        `no query of this report declares it; its parameters: ${[...declared.keys()].join(", ") || "none"}`,
      );
    }
    try {
      // The value's validity does not depend on the day, only "today" would and it is valid.
      parseParamValue(entry.param, value, `${file} (params.${key})`, new Date(0));
    } catch (error) {
      if (error instanceof LmsExportError) fail(`params.${key}`, error.message);
      throw error;
    }
  }
}

function reportDef(def: ReportFields, name: string, file: string): ReportDef {
  return {
    name,
    file,
    title: def.title,
    description: def.description,
    queries: def.queries,
    formats: def.formats,
    params: def.params,
    fileName: def.fileName,
    charts: def.charts,
    ...(def.mail === undefined
      ? {}
      : {
          mail: {
            ...def.mail,
            subject: def.mail.subject,
            attach: def.mail.attach,
            whenQuery: def.mail.whenQuery,
            splitBy: def.mail.splitBy,
          },
        }),
    csvBom: def.csvBom,
  };
}

/** Each chart reads one of the report's own queries and has a consistent shape. */
function checkCharts(charts: readonly ChartSpec[], queries: readonly string[], fail: Fail): void {
  charts.forEach((chart, index) => {
    if (!queries.includes(chart.query)) {
      fail(
        `charts[${index}].query`,
        `query ${JSON.stringify(chart.query)} is not one of this report's queries (${queries.join(", ")})`,
      );
    }
    const problem = chartShapeProblem(chart);
    if (problem) fail(`charts[${index}].${problem[0]}`, problem[1]);
  });
}

/** What the mail block refers to: its subject's placeholders and the report's queries. */
function checkMailBlock(
  mail: ReportFields["mail"] & object,
  queries: readonly string[],
  fail: Fail,
): void {
  const problem = mail.subject === undefined ? undefined : subjectProblem(mail.subject);
  if (problem) fail("mail.subject", problem);
  if (mail.whenQuery !== undefined && !queries.includes(mail.whenQuery)) {
    fail(
      "mail.whenQuery",
      `${JSON.stringify(mail.whenQuery)} is not one of the report's queries: ${queries.join(", ")}`,
    );
  }
  if (mail.attach !== undefined && new Set(mail.attach).size !== mail.attach.length) {
    fail("mail.attach", "lists a format twice");
  }
}
