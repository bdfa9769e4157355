/**
 * TypeScript record types derived from the registry, so the client's results are typed without
 * restating any field.
 */
import type { Resources } from "./registry.js";
import type { FieldType, ResourceName } from "./types.js";

/** The JSON value a field of each type carries on the wire. */
interface WireTypes {
  int: number;
  string: string;
  datetime: string;
  number: number;
  flag: number;
  string_list: string[];
  object: Record<string, unknown>;
  unknown: unknown;
}

type WireValue<F> = F extends { type: infer T extends FieldType; nullable: infer N }
  ? N extends true
    ? WireTypes[T] | null
    : WireTypes[T]
  : never;

/** One record of resource `R` as the API returns it. */
export type ApiRecord<R extends ResourceName> = {
  [F in Resources[R]["fields"][number] as F["name"]]: WireValue<F>;
};

export type Group = ApiRecord<"grp">;
export type UserGroupLink = ApiRecord<"user_grp">;
export type User = ApiRecord<"user">;
export type Product = ApiRecord<"product">;
export type ProductAccess = ApiRecord<"product_access">;
export type Take = ApiRecord<"take">;
export type Availability = ApiRecord<"svc_availability">;
export type AvailabilityGroup = ApiRecord<"availability_group">;

/** Names of the fields of resource `R`. */
export type FieldName<R extends ResourceName> = Resources[R]["fields"][number]["name"];
