/**
 * Arrow schema of an extracted resource, derived from the registry (never restated).
 *
 * Field type to Arrow type (the DuckDB column types in load/ddl.ts line up with these):
 * int -> Int64, datetime -> Timestamp(microsecond, "UTC"), number -> Float64, flag -> Int32,
 * string -> Utf8, string_list -> List<Utf8>, object -> Utf8 (JSON text), unknown -> Utf8.
 * A last nullable `_extra` Utf8 column holds, as a JSON object, the fields the registry does not
 * know. Nullability is the registry's.
 */
import {
  type DataType,
  Field,
  Float64,
  Int32,
  Int64,
  List,
  Schema,
  TimestampMicrosecond,
  Utf8,
} from "apache-arrow";
import { EXTRA_COLUMN } from "../resources/extra-column.js";
import type { ExtractedName } from "../resources/registry.js";
import { RESOURCES } from "../resources/registry.js";
import type { FieldType, ResourceSpec } from "../resources/types.js";

/** Arrow type that stores a value of registry type `type`. */
export function arrowType(type: FieldType): DataType {
  switch (type) {
    case "int":
      return new Int64();
    case "datetime":
      return new TimestampMicrosecond("UTC");
    case "number":
      return new Float64();
    case "flag":
      return new Int32();
    case "string_list":
      return new List(new Field("item", new Utf8(), true));
    case "string":
    case "object":
    case "unknown":
      return new Utf8();
  }
}

/** Schema for any resource spec (registry fields in order, then `_extra`). */
export function arrowSchemaFor(spec: ResourceSpec): Schema {
  const fields = spec.fields.map(
    (field) => new Field(field.name, arrowType(field.type), field.nullable),
  );
  fields.push(new Field(EXTRA_COLUMN, new Utf8(), true));
  return new Schema(fields);
}

const cache = new Map<ExtractedName, Schema>();

/** Schema of an extracted resource: its registry fields, then `_extra` (Utf8 JSON, nullable). */
export function arrowSchema(resource: ExtractedName): Schema {
  let schema = cache.get(resource);
  if (!schema) {
    schema = arrowSchemaFor(RESOURCES[resource]);
    cache.set(resource, schema);
  }
  return schema;
}
