/**
 * The vocabulary of the resource registry: what a field and a resource are.
 *
 * Every other layer (client types, Arrow schema, DuckDB DDL, simulator generator) reads these
 * declarations instead of restating field lists.
 */

/**
 * Field types as the API delivers them.
 * - `int`: integer (stored as BIGINT: the spec gives no width, so take the one that cannot overflow).
 * - `string`: text.
 * - `datetime`: ISO 8601 date-time string; normalised to a UTC instant.
 * - `number`: decimal number (product_price).
 * - `flag`: integer 0/1 switch; kept as the integer the API sends (0/1), since the spec only calls
 *   it an int and a third value must not be lost.
 * - `string_list`: array of strings.
 * - `object`: free-form JSON object; stored as JSON text.
 * - `unknown`: the spec shows only `null`; stored as text (strings as they are, anything else as
 *   JSON) so no value the portal might send is lost.
 */
export type FieldType =
  | "int"
  | "string"
  | "datetime"
  | "number"
  | "flag"
  | "string_list"
  | "object"
  | "unknown";

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  /** Whether the value may be null or absent. */
  readonly nullable: boolean;
  /** Allowed values where the spec lists them (the client and simulator both respect them). */
  readonly values?: readonly string[];
}

/** Operations the API offers on a resource, as paths relative to the base URL. */
export interface ResourceEndpoints {
  /** Paginated POST list (`start`, `limit`, `criterias`). */
  readonly list?: string;
  /** Paginated POST list scoped to a parent id: `{id}` is replaced by the parent's id. */
  readonly listFor?: { readonly path: string; readonly parent: ResourceName };
  /** GET one record: `{id}` is replaced. */
  readonly get?: string;
  /** POST edit of one record: `{id}` is replaced. */
  readonly edit?: string;
  /** POST create. */
  readonly create?: string;
  /** GET by another key: `{external_id}` is replaced. */
  readonly getByExternalId?: string;
}

export type ResourceName =
  | "grp"
  | "user_grp"
  | "user"
  | "product"
  | "product_access"
  | "take"
  | "svc_availability"
  | "availability_group";

/** Where a fan-out's ids come from: a field of a parent's records, optionally filtered. */
export interface IdSource {
  readonly parent: ResourceName;
  readonly field: string;
  /** Only records where this field equals this value carry a usable id. */
  readonly when?: { readonly field: string; readonly equals: string };
}

/**
 * How the extractor copies a resource, with the client read operation it uses (a method of the
 * client and its name in the client's statistics) and the kind of resume checkpoint its work
 * leaves:
 * - `list`: the paged list (`endpoints.list`), checkpointed by page offset;
 * - `perParent`: the list per parent id (`endpoints.listFor`), checkpointed by parent id;
 * - `lookup`: one record per id (`endpoints.get`), checkpointed by id.
 * A fan-out (`perParent`, `lookup`) takes its ids from the records of the resources `idsFrom` names.
 */
export type Extraction =
  | { readonly kind: "list"; readonly checkpoint: "page"; readonly operation: string }
  | {
      readonly kind: "perParent";
      readonly checkpoint: "parent";
      readonly operation: string;
      readonly idsFrom: readonly IdSource[];
      /** The field of each child record holding its parent's id (a take's user). */
      readonly parentField: string;
    }
  | {
      readonly kind: "lookup";
      readonly checkpoint: "lookup";
      readonly operation: string;
      readonly idsFrom: readonly IdSource[];
    };

export interface ResourceSpec {
  readonly name: ResourceName;
  /** Human name for messages and progress output. */
  readonly title: string;
  readonly primaryKey: string;
  /** The `*_updated_date` field used as an incremental cursor, where the resource has one. */
  readonly updatedField?: string;
  readonly endpoints: ResourceEndpoints;
  /** Fields writable through the edit (or create) operation, with their types as the spec gives them. */
  readonly writable?: readonly string[];
  readonly fields: readonly FieldSpec[];
  /** How the extractor copies it; a resource without one is not extracted. */
  readonly extraction?: Extraction;
  /**
   * The client's name for reading one record by `endpoints.get`, where the extraction does not
   * already name it (a `lookup` extraction's operation is that read).
   */
  readonly getOperation?: string;
}
