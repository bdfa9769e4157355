/**
 * The client's read operations as the registry declares them: the operation name (a client
 * method, and its name in the statistics) and the path of a resource's list, list per parent, and
 * read by id.
 */
import { RESOURCES } from "../resources/registry.js";
import type { ResourceSpec } from "../resources/types.js";
import type { ChildResource, ListedResource, LookupResource } from "./types.js";

export interface Read {
  readonly operation: string;
  readonly path: string;
  /** The primary key (pages are checked and re-read by it). */
  readonly key: string;
}

export function listRead(resource: ListedResource): Read {
  const spec = RESOURCES[resource];
  return { operation: spec.extraction.operation, path: spec.endpoints.list, key: spec.primaryKey };
}

export function childRead(resource: ChildResource, parentId: number): Read {
  const spec = RESOURCES[resource];
  const path = fill(spec.endpoints.listFor.path, { id: parentId });
  return { operation: spec.extraction.operation, path, key: spec.primaryKey };
}

export function lookupRead(resource: LookupResource, id: number): Read {
  const spec: ResourceSpec = RESOURCES[resource];
  const operation =
    spec.extraction?.kind === "lookup" ? spec.extraction.operation : spec.getOperation;
  if (operation === undefined || spec.endpoints.get === undefined) {
    throw new TypeError(`${resource}: the registry names no read by id`);
  }
  return { operation, path: fill(spec.endpoints.get, { id }), key: spec.primaryKey };
}

/**
 * Fills `{name}` placeholders of a registry path. Ids must be safe integers; other values are
 * percent-encoded so an external id cannot change the path.
 */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`no value for {${name}} in ${template}`);
    if (typeof value === "number" && !Number.isSafeInteger(value)) {
      throw new RangeError(`{${name}} must be an integer, got ${value}`);
    }
    return encodeURIComponent(String(value));
  });
}
