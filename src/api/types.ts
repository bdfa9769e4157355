/**
 * Request and response shapes of the API (docs/api.md §2), typed from the registry.
 */
import type { Operator } from "../resources/operators.js";
import type { ApiRecord, FieldName } from "../resources/record-types.js";
import type { Resources } from "../resources/registry.js";
import type { ResourceName } from "../resources/types.js";

export type { Operator } from "../resources/operators.js";

/**
 * One filter criterion. `value` has no declared type in the spec; `in`/`not_in` take an array.
 * Several criteria in one request are assumed to combine with AND (the spec does not say).
 */
export interface Criterion {
  column: string;
  operator: Operator;
  value: unknown;
}

/** Body of every list operation; omitted fields take the portal's defaults (start 0, limit 10). */
export interface ListRequest {
  start?: number;
  limit?: number;
  criterias?: Criterion[];
}

/** One list answer: the records of the page asked for and the count of all matching records. */
export interface ListResponse<T> {
  total: number;
  result: T[];
}

/** Names of the fields the registry declares writable for resource `R`. */
export type WritableField<R extends ResourceName> = Resources[R] extends {
  readonly writable: readonly (infer W)[];
}
  ? W & FieldName<R>
  : never;

/** Body of an edit: any subset of the writable fields (which are required is not shown). */
export type EditBody<R extends ResourceName> = Partial<Pick<ApiRecord<R>, WritableField<R>>>;

/**
 * Body of a user edit: `user_organisation_identifier` and, the spec says, possibly other user
 * fields; so any user field but the id is accepted.
 */
export type UserEditBody = Partial<Omit<ApiRecord<"user">, "user_id">>;

/** Body of a user-group link creation: all three fields (docs/api.md §2). */
export type NewUserGroup = {
  [F in WritableField<"user_grp">]: NonNullable<ApiRecord<"user_grp">[F]>;
};

/** Resources whose registry entry is extracted with a plain paginated POST list. */
export type ListedResource = {
  [R in ResourceName]: Resources[R] extends { readonly extraction: { readonly kind: "list" } }
    ? R
    : never;
}[ResourceName];

/** Resources whose registry entry is extracted as a list per parent id (a user's takes). */
export type ChildResource = {
  [R in ResourceName]: Resources[R] extends { readonly extraction: { readonly kind: "perParent" } }
    ? R
    : never;
}[ResourceName];

/** Resources the registry gives a read of one record by id. */
export type LookupResource = {
  [R in ResourceName]: Resources[R] extends { readonly endpoints: { readonly get: string } }
    ? R
    : never;
}[ResourceName];
