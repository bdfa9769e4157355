/**
 * The simulated portal's operations, derived from the registry's endpoints (plus POST /token),
 * and the matching of a request's method and path against them.
 */
import { RESOURCES } from "../resources/registry.js";
import type { ResourceName, ResourceSpec } from "../resources/types.js";

/** Every path is under this prefix (the spec's base address ends with `api-v2`). */
export const API_PREFIX = "/api-v2";

export type OperationKind =
  | "token"
  | "list"
  | "listFor"
  | "get"
  | "edit"
  | "create"
  | "getByExternalId";

/** One operation of the API. */
export interface Route {
  /** Stable name for statistics, e.g. `grp/get_all`, `take/get_all_for_user`, `token`. */
  readonly operation: string;
  readonly method: "GET" | "POST";
  readonly kind: OperationKind;
  /** The resource it serves (undefined for token). */
  readonly resource: ResourceName | undefined;
  /** Path segments after the prefix; a `{...}` segment captures the path parameter. */
  readonly segments: readonly string[];
}

/** A request matched to its operation, with the path parameter if the path has one. */
export interface RouteMatch {
  readonly route: Route;
  readonly param: string | undefined;
}

function route(
  kind: OperationKind,
  method: "GET" | "POST",
  path: string,
  resource?: ResourceName,
): Route {
  const segments = path.split("/").filter(Boolean);
  const operation = segments.filter((s) => !s.startsWith("{")).join("/");
  return { operation, method, kind, resource, segments };
}

function routesOf(spec: ResourceSpec): Route[] {
  const { endpoints: e, name } = spec;
  const out: Route[] = [];
  if (e.list) out.push(route("list", "POST", e.list, name));
  if (e.listFor) out.push(route("listFor", "POST", e.listFor.path, name));
  if (e.get) out.push(route("get", "GET", e.get, name));
  if (e.edit) out.push(route("edit", "POST", e.edit, name));
  if (e.create) out.push(route("create", "POST", e.create, name));
  if (e.getByExternalId) out.push(route("getByExternalId", "GET", e.getByExternalId, name));
  return out;
}

/** The 15 operations of docs/api.md §2 (token and 14 on resources). */
export function buildRoutes(): Route[] {
  const resources: readonly ResourceSpec[] = Object.values(RESOURCES);
  return [route("token", "POST", "/token"), ...resources.flatMap(routesOf)];
}

function matchSegments(
  route: Route,
  parts: readonly string[],
): { param: string | undefined } | null {
  if (route.segments.length !== parts.length) return null;
  let param: string | undefined;
  for (let i = 0; i < parts.length; i++) {
    const want = route.segments[i] as string;
    const got = parts[i] as string;
    if (want.startsWith("{")) param = got;
    else if (want !== got) return null;
  }
  return { param };
}

/** The operation for a method and path: a match, or the HTTP status to refuse with (404/405). */
export function matchRoute(
  routes: readonly Route[],
  method: string | undefined,
  pathname: string,
): RouteMatch | { status: 404 | 405; message: string } {
  if (pathname !== API_PREFIX && !pathname.startsWith(`${API_PREFIX}/`)) {
    return { status: 404, message: `no operation at ${pathname}; paths start with ${API_PREFIX}` };
  }
  const parts = pathname.slice(API_PREFIX.length).split("/").filter(Boolean);
  let wrongMethod: Route | undefined;
  for (const candidate of routes) {
    const found = matchSegments(candidate, parts);
    if (!found) continue;
    if (candidate.method === method) return { route: candidate, param: found.param };
    wrongMethod = candidate;
  }
  if (wrongMethod)
    return { status: 405, message: `${wrongMethod.operation} needs ${wrongMethod.method}` };
  return { status: 404, message: `no operation at ${pathname}` };
}
