/**
 * The four bulk changes `apply` knows, each derived from the registry: which resource, the column
 * naming the record, the fields a file may set (the registry's `writable`) and the local table the
 * "before" values come from.
 */
import { USER_TABLE } from "../load/user-table.js";
import { RESOURCES } from "../resources/registry.js";
import type { FieldSpec, ResourceName, ResourceSpec } from "../resources/types.js";

export const APPLY_OPS = [
  "product_access.edit",
  "grp.edit",
  "user.edit",
  "user_grp.create",
] as const;

export type ApplyOp = (typeof APPLY_OPS)[number];

export type EditedResource = "product_access" | "grp" | "user";

export interface OpSpec {
  readonly op: ApplyOp;
  readonly resource: ResourceName;
  readonly kind: "edit" | "create";
  /** The primary key column naming the record to edit; none for a create. */
  readonly idColumn: string | undefined;
  /** The fields a file may set, in registry order. */
  readonly fields: readonly FieldSpec[];
  /** Fields every row must give (a create's references). */
  readonly required: readonly string[];
  /** The local table holding the records (the roster for users). */
  readonly table: string;
}

function writableFields(resource: ResourceName): FieldSpec[] {
  const spec: ResourceSpec = RESOURCES[resource];
  const writable = new Set<string>(spec.writable ?? []);
  return spec.fields.filter((field) => writable.has(field.name));
}

function edit(resource: EditedResource): OpSpec {
  return {
    op: `${resource}.edit`,
    resource,
    kind: "edit",
    idColumn: RESOURCES[resource].primaryKey,
    fields: writableFields(resource),
    required: [],
    table: resource === "user" ? USER_TABLE : resource,
  };
}

const SPECS: Readonly<Record<ApplyOp, OpSpec>> = {
  "product_access.edit": edit("product_access"),
  "grp.edit": edit("grp"),
  "user.edit": edit("user"),
  "user_grp.create": {
    op: "user_grp.create",
    resource: "user_grp",
    kind: "create",
    idColumn: undefined,
    fields: writableFields("user_grp").map((field) =>
      // The interface calls it a "group-admin indicator" and has no edit or delete of a link: a
      // -1 or 2 typed by mistake would stay for good, as whatever the portal makes of it. Reading
      // keeps any value (src/encode/coerce-value.ts); writing takes the two an indicator has.
      field.name === "user_grp_group_admin" ? { ...field, values: ["0", "1"] } : field,
    ),
    // A link names a user and a group; the portal cannot make one without both.
    required: ["user_grp_user_id", "user_grp_grp_id"],
    table: "user_grp",
  },
};

export function isApplyOp(value: string): value is ApplyOp {
  return (APPLY_OPS as readonly string[]).includes(value);
}

export function opSpec(op: ApplyOp): OpSpec {
  return SPECS[op];
}
