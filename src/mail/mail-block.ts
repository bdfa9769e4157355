/**
 * The `mail` block of a report definition: who gets the report, under which subject, with which
 * files, when, and whether it is split into one message per recipient found in the data.
 *
 *   "mail": { "to": ["compliance@example.com"], "cc": [], "subject": "{title}: {date}",
 *             "attach": ["xlsx"], "when": "rows", "whenQuery": "compliance",
 *             "splitBy": "manager_email" }
 */
import { z } from "zod";
import { isMailAddress, normaliseAddress } from "./address.js";

/** When a report is mailed: every time, or only when its chosen query returned rows. */
export const MAIL_WHEN = ["always", "rows"] as const;

/** Placeholders a subject may use. */
export const SUBJECT_PLACEHOLDERS = ["title", "date", "today", "portal", "share"] as const;

/** The subject when the block gives none. */
export const DEFAULT_SUBJECT = "{title} ({date})";

/**
 * The subject when the block gives none and the report is made for a named portal (--portal):
 * the mails of one report from two portals would otherwise read the same.
 */
export const PORTAL_DEFAULT_SUBJECT = "{title}, {portal} ({date})";

const Address = z
  .string()
  .transform(normaliseAddress)
  .refine(isMailAddress, "must be a plain e-mail address such as compliance@example.com");

/** The block's JSON shape; `formats` is the report's format enum, so attach follows it. */
export function mailBlockSchema<F extends string>(formats: z.ZodType<F>) {
  return z.strictObject({
    to: z.array(Address).min(1, "must name at least one address"),
    cc: z.array(Address).default([]),
    // No default here: a subject left out names the portal when there is one (defaultSubject).
    subject: z.string().trim().min(1, "must be a non-empty text").optional(),
    attach: z.array(formats).optional(),
    when: z.enum(MAIL_WHEN).default("always"),
    whenQuery: z.string().min(1).optional(),
    splitBy: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a column name of the first query")
      .optional(),
  });
}

/** A checked mail block. `attach` undefined: every format the report writes. */
export interface MailBlock {
  to: string[];
  cc: string[];
  /** Undefined: the default, {@link defaultSubject}. */
  subject: string | undefined;
  attach: string[] | undefined;
  when: (typeof MAIL_WHEN)[number];
  whenQuery: string | undefined;
  splitBy: string | undefined;
}

/** Why `subject` is not a valid subject, or undefined when it is. */
export function subjectProblem(subject: string): string | undefined {
  for (const match of subject.matchAll(/\{([^}]*)\}/g)) {
    const name = match[1] ?? "";
    if (!(SUBJECT_PLACEHOLDERS as readonly string[]).includes(name)) {
      return `unknown placeholder {${name}}; use ${SUBJECT_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}`;
    }
  }
  if (/[\r\n]/.test(subject)) return "must be one line";
  return undefined;
}

/** The subject of a report whose mail block gives none, for `portal` (--portal) if one is named. */
export function defaultSubject(portal: string | undefined): string {
  return portal === undefined ? DEFAULT_SUBJECT : PORTAL_DEFAULT_SUBJECT;
}

/**
 * What {share} says in the copy of a split report's rows without an address. That copy goes to
 * the report's own recipients, who would otherwise take a message under the report's subject for
 * the whole report; "unassigned" is also the name of its folder (OUT/split/unassigned).
 */
export const UNASSIGNED_SHARE = "unassigned rows";

/** What {share} says for a message of `scope` (a split report's share), undefined for a whole one. */
export function shareName(scope: { address: string | undefined } | undefined): string | undefined {
  if (scope === undefined) return undefined;
  return scope.address ?? UNASSIGNED_SHARE;
}

/**
 * The subject of the copy of a split report's rows without an address when the block gives none:
 * the default, naming that copy, so it does not read as the whole report.
 */
export function defaultUnassignedSubject(portal: string | undefined): string {
  return `${defaultSubject(portal)}, {share}`;
}

/** What a subject's placeholders stand for in one message. */
export interface SubjectValues {
  title: string;
  now: Date;
  today: string;
  /** The portal of --portal; undefined without one. */
  portal: string | undefined;
  /**
   * Whose rows a split report's message holds: the manager's address, or UNASSIGNED_SHARE;
   * undefined for a report sent whole.
   */
  share?: string | undefined;
}

/** `template` without `{name}` and the spaces before it: "{title} {portal} ({date})" → "{title} ({date})". */
function withoutPlaceholder(template: string, name: string): string {
  return template.replace(new RegExp(`\\s*\\{${name}\\}`, "g"), "").trimStart();
}

/**
 * The subject with {title}, {date} (the run's day, YYYY-MM-DD, UTC), {today} (the day the figures
 * are as of, report-day.ts), {portal} and {share} filled in, in one pass, so a title that happens
 * to hold "{date}" is left as it is. A {portal} or {share} with nothing to say is empty and goes
 * with the spaces before it: "{title} {portal} ({date})" reads "T (D)", not "T  (D)". A subject
 * left with nothing to say is the title.
 */
export function expandSubject(subject: string, values: SubjectValues): string {
  let template = values.portal === undefined ? withoutPlaceholder(subject, "portal") : subject;
  if (values.share === undefined) template = withoutPlaceholder(template, "share");
  const filled: Record<string, string> = {
    title: values.title,
    date: values.now.toISOString().slice(0, 10),
    today: values.today,
    portal: values.portal ?? "",
    share: values.share ?? "",
  };
  const text = template.replace(
    /\{(title|date|today|portal|share)\}/g,
    (_, name: string) => filled[name] ?? "",
  );
  // "{share}" in a report sent whole, "{portal}" without --portal: a message without a subject
  // is easily taken for spam or never opened, so it is named by the report's title instead.
  return text.trim() === "" ? values.title : text;
}
