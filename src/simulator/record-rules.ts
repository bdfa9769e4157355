/**
 * Semantic rules for the fields of groups, links, users, access records, takes and
 * availabilities, keyed by field name (products have their own file). Fields without a rule get
 * a type default (see fill.ts).
 *
 * Invariants the rules keep: a take's started <= completed <= updated; a completed take has a
 * score at or above the product's minimum, a failed one below it, an in-progress one has neither
 * score nor completion date; an expired access record's expiry date is in the past and an active
 * one's in the future (or absent).
 */
import type { StoredValue } from "./column-store.js";
import { DAY, HOUR, MINUTE } from "./dates.js";
import type { FieldRule, FillContext } from "./fill.js";
import { DEPARTMENTS, JOB_TITLES, type NamePool, slugify } from "./vocabulary.js";

/** take_status values: the spec shows only `in_progress`; the others are what a portal has. */
export const TAKE_STATUSES = ["in_progress", "completed", "failed"] as const;
/** user_status values: the spec shows only `active`. */
export const USER_STATUSES = ["active", "inactive", "suspended"] as const;
/** svc_availability_status values: the spec shows only `active`. */
export const AVAILABILITY_STATUSES = ["active", "inactive"] as const;
/** availability_group_status values: none are shown in the spec. */
export const AVAILABILITY_GROUP_STATUSES = ["active", "inactive", "archived"] as const;

type Department = (typeof DEPARTMENTS)[number];

const num = (ctx: FillContext, name: string): number => ctx.value(name) as number;
const str = (ctx: FillContext, name: string): string => ctx.value(name) as string;
const department = (ctx: FillContext): Department => ctx.facts._department as Department;
const region = (ctx: FillContext): string => ctx.facts._region as string;
const pool = (ctx: FillContext): NamePool => ctx.facts._names as NamePool;

function weighted<T>(ctx: FillContext, choices: readonly (readonly [T, number])[]): T {
  let r = ctx.rng.next();
  for (const [value, weight] of choices) {
    r -= weight;
    if (r < 0) return value;
  }
  return (choices[choices.length - 1] as readonly [T, number])[0];
}

/** The local part of an e-mail address: ASCII letters of the name, else a neutral word. */
const mailPart = (text: string): string => slugify(text).replace(/-/g, "") || "user";

const group: Record<string, FieldRule> = {
  grp_name: (c) => `${department(c).key}-${slugify(region(c))}-${num(c, "grp_id")}`,
  grp_description: (c) => (c.rng.chance(0.1) ? null : `${department(c).label} — ${region(c)}`),
  grp_external_id: (c) =>
    c.rng.chance(0.2) ? null : `EXT-G${String(num(c, "grp_id")).padStart(6, "0")}`,
  grp_external_name: (c) =>
    c.rng.chance(0.25) ? null : `${department(c).label} (${region(c).toLocaleUpperCase("fr")})`,
  user_grp_group_admin: (c) => (c.rng.chance(0.04) ? 1 : 0),
};

const user: Record<string, FieldRule> = {
  firstname: (c) => c.rng.pick(pool(c).first),
  lastname: (c) => c.rng.pick(pool(c).last),
  email: (c) =>
    `${mailPart(str(c, "firstname"))}.${mailPart(str(c, "lastname"))}.${num(c, "user_id")}@example.org`,
  user_status: (c) =>
    weighted(c, [
      ["active", 0.92],
      ["inactive", 0.06],
      ["suspended", 0.02],
    ]),
  user_organisation_identifier: (c) =>
    c.rng.chance(0.1) ? null : `ORG-${pool(c).locale.slice(3)}-${c.rng.int(100, 999)}`,
  properties: (c) => ({
    department: c.rng.pick(DEPARTMENTS).label,
    job_title: c.rng.pick(JOB_TITLES),
    locale: pool(c).locale,
    hire_year: c.rng.int(1995, 2025),
    remote: c.rng.chance(0.3),
    cost_center: c.rng.chance(0.2) ? null : `CC-${c.rng.int(1000, 9999)}`,
  }),
};

const access: Record<string, FieldRule> = {
  product_access_status: (c) =>
    weighted(c, [
      ["active", 0.6],
      ["inactive", 0.15],
      ["expired", 0.25],
    ]),
  product_access_certificate: (c) =>
    str(c, "product_access_status") !== "inactive" && c.rng.chance(0.35) ? "1" : "0",
  product_access_expired_date: (c): StoredValue => {
    const created = num(c, "product_access_created_date");
    switch (str(c, "product_access_status")) {
      case "active":
        return c.rng.chance(0.2) ? null : c.now + c.rng.int(30 * DAY, 730 * DAY);
      case "expired":
        return c.rng.int(Math.min(created, c.now - MINUTE), c.now - MINUTE);
      default:
        return c.rng.chance(0.5)
          ? null
          : Math.max(created, c.now + c.rng.int(-365 * DAY, 365 * DAY));
    }
  },
};

const take: Record<string, FieldRule> = {
  take_status: (c) =>
    weighted(c, [
      ["completed", 0.55],
      ["in_progress", 0.3],
      ["failed", 0.15],
    ]),
  take_started_date: (c) => Math.min(num(c, "take_created_date") + c.rng.int(0, 2 * MINUTE), c.now),
  take_completed_date: (c) => {
    if (str(c, "take_status") === "in_progress") return null;
    const started = num(c, "take_started_date");
    return Math.min(started + c.rng.int(10 * MINUTE, 20 * DAY), c.now);
  },
  take_score: (c) => {
    const min = (c.facts._minScore as number | undefined) ?? 70;
    switch (str(c, "take_status")) {
      case "completed":
        return c.rng.int(min, 100);
      case "failed":
        return c.rng.int(0, Math.max(0, min - 1));
      default:
        return null;
    }
  },
  take_updated_date: (c) => {
    const completed = c.value("take_completed_date");
    if (typeof completed === "number") return Math.min(completed + c.rng.int(0, HOUR), c.now);
    const started = num(c, "take_started_date");
    return c.rng.int(started, Math.max(started, c.now));
  },
};

const availability: Record<string, FieldRule> = {
  svc_availability_status: (c) => (c.rng.chance(0.9) ? "active" : "inactive"),
  availability_group_status: (c) =>
    weighted(c, [
      ["active", 0.8],
      ["inactive", 0.15],
      ["archived", 0.05],
    ]),
};

/** Rules for every resource but products, keyed by field name. */
export const RECORD_RULES: Readonly<Record<string, FieldRule>> = {
  ...group,
  ...user,
  ...access,
  ...take,
  ...availability,
};
