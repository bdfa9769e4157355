/**
 * Turns a record's structural facts into a full record by walking the registry's field list.
 *
 * For each field, in order of preference: the fact the structure decided (ids, references,
 * creation date), else a semantic rule keyed by the field's name (statuses, names, consistent
 * dates), else a default for the field's type. No resource's field list is restated here: a
 * field added to the registry gets a type default until someone writes a rule for it.
 * Rules read other fields through `ctx.value(name)`, which computes them on demand, so a rule
 * does not depend on the order the registry lists fields in.
 */
import type { FieldSpec, ResourceSpec } from "../resources/types.js";
import type { StoredValue } from "./column-store.js";
import { DAY } from "./dates.js";
import type { Rng } from "./prng.js";

/** What a rule may read while computing one field of one record. */
export interface FillContext {
  readonly rng: Rng;
  /** Structural values keyed by field name, plus hidden hints whose names start with `_`. */
  readonly facts: Readonly<Record<string, unknown>>;
  /** The reference "now" in epoch seconds (never before the record's creation). */
  readonly now: number;
  /** The value of another field of the same record (dates in epoch seconds). */
  value(name: string): StoredValue;
}

/** Computes one field's stored value. */
export type FieldRule = (ctx: FillContext, field: FieldSpec) => StoredValue;

/** Share of nullable fields without a rule that come out null, so clients meet nulls. */
const NULL_SHARE = 0.03;

const FILLER_WORDS = ["alpha", "bêta", "gamma", "délta", "epsilon", "ζήτα", "エータ"] as const;

function typeDefault(ctx: FillContext, field: FieldSpec): StoredValue {
  const { rng } = ctx;
  if (field.name.endsWith("_created_date")) return ctx.now - rng.int(30 * DAY, 900 * DAY);
  if (field.name.endsWith("_updated_date")) {
    const created = ctx.value(field.name.replace(/_updated_date$/, "_created_date"));
    if (typeof created !== "number") return ctx.now;
    return rng.chance(0.4) ? created : rng.int(created, Math.max(created, ctx.now));
  }
  if (field.values) return rng.pick(field.values);
  if (field.nullable && field.type !== "unknown" && rng.chance(NULL_SHARE)) return null;
  switch (field.type) {
    case "int":
      return rng.int(0, 100);
    case "flag":
      return rng.int(0, 1);
    case "number":
      return rng.int(0, 100_000) / 100;
    case "datetime":
      return ctx.now - rng.int(0, 365 * DAY);
    case "string":
      return `${rng.pick(FILLER_WORDS)}-${rng.int(1, 999)}`;
    case "string_list":
      return [];
    case "object":
      return {};
    case "unknown":
      return null;
  }
}

const UNSET = Symbol("unset");
const PENDING = Symbol("pending");

/** Compiled per resource once: field positions and rules are looked up by index, not by name. */
export class RecordFiller {
  private readonly spec: ResourceSpec;
  private readonly rules: (FieldRule | undefined)[];
  private readonly positions: ReadonlyMap<string, number>;
  private readonly createdField: string;

  constructor(spec: ResourceSpec, rules: Readonly<Record<string, FieldRule>>) {
    this.spec = spec;
    this.rules = spec.fields.map((field) => rules[field.name]);
    this.positions = new Map(spec.fields.map((field, i) => [field.name, i]));
    this.createdField = `${spec.name}_created_date`;
  }

  /** A full record in registry field order, stored form (dates as epoch seconds). */
  fill(facts: Readonly<Record<string, unknown>>, rng: Rng, now: number): StoredValue[] {
    const fields = this.spec.fields;
    const done: unknown[] = new Array(fields.length).fill(UNSET);
    const created = facts[this.createdField];
    const compute = (i: number): StoredValue => {
      const known = done[i];
      if (known === PENDING) throw new Error(`rules for ${fields[i]?.name} depend on each other`);
      if (known !== UNSET) return known;
      const field = fields[i] as FieldSpec;
      done[i] = PENDING;
      const fact = facts[field.name];
      const rule = this.rules[i];
      const value = fact !== undefined ? fact : rule ? rule(ctx, field) : typeDefault(ctx, field);
      done[i] = value ?? null;
      return done[i];
    };
    const ctx: FillContext = {
      rng,
      facts,
      now: typeof created === "number" ? Math.max(now, created) : now,
      value: (name) => {
        const i = this.positions.get(name);
        if (i === undefined) throw new Error(`${this.spec.name} has no field ${name}`);
        return compute(i);
      },
    };
    for (let i = 0; i < fields.length; i++) compute(i);
    return done;
  }
}
