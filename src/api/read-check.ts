/**
 * A check the compiler makes: every read the registry names (its `extraction` operation and its
 * `getOperation`) is a client method that reads that resource, with the shape of its kind. Kept
 * apart from reads.ts and client.ts, which it names both, so neither imports the other.
 */
import type { ApiRecord } from "../resources/record-types.js";
import type { ExtractedName, Resources } from "../resources/registry.js";
import type { ResourceName } from "../resources/types.js";
import type { LmsClient } from "./client.js";
import type { ListRequest, ListResponse } from "./types.js";

/** The client method a read of each kind is, for resource `R`. */
type ReadMethod<R extends ResourceName, K> = K extends "list"
  ? (body?: ListRequest) => Promise<ListResponse<ApiRecord<R>>>
  : K extends "perParent"
    ? (parentId: number, body?: ListRequest) => Promise<ListResponse<ApiRecord<R>>>
    : (id: number) => Promise<ApiRecord<R> | null>;

type Extraction<R extends ExtractedName> = Resources[R]["extraction"];

/** Per extracted resource: does its extraction name a client method that reads it? */
type ExtractionReads = {
  [R in ExtractedName]: LmsClient[Extraction<R>["operation"]] extends ReadMethod<
    R,
    Extraction<R>["kind"]
  >
    ? true
    : false;
}[ExtractedName];

/** Per resource with a separate read by id: is it a client method that reads it? */
type GetReads = {
  [R in ResourceName]: Resources[R] extends { readonly getOperation: infer O extends string }
    ? O extends keyof LmsClient
      ? LmsClient[O] extends ReadMethod<R, "lookup">
        ? true
        : false
      : false
    : true;
}[ResourceName];

type Holds<T extends true> = T;

/**
 * Does not compile when a registry entry names a read the client lacks, or one that reads
 * another resource or has another shape.
 */
export type RegistryReadsExist = Holds<ExtractionReads | GetReads>;
