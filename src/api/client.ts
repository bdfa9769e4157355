/**
 * The LMS API v2 client: every operation of the spec, typed from the registry, plus paginated
 * listing. Paths come from the registry's `endpoints`; nothing here restates them.
 */

import { type Logger, silentLogger } from "../log/logger.js";
import type { ApiRecord } from "../resources/record-types.js";
import { RESOURCES } from "../resources/registry.js";
import type { ListContent } from "./envelope.js";
import { NotFoundError } from "./errors.js";
import { type ListPage, type PagesOptions, paginate } from "./paginate.js";
import type { ClientStats } from "./stats.js";
import { type Call, Transport } from "./transport.js";
import type {
  EditBody,
  ListedResource,
  ListRequest,
  ListResponse,
  NewUserGroup,
  UserEditBody,
} from "./types.js";

export type { ListPage, ListSummary, PagesOptions } from "./paginate.js";
export type { ClientStats } from "./stats.js";
export type {
  Criterion,
  EditBody,
  ListedResource,
  ListRequest,
  ListResponse,
  NewUserGroup,
  Operator,
  UserEditBody,
} from "./types.js";

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The portal's API address, e.g. `https://lms.example.org/api-v2`; every path is appended. */
  baseUrl: string;
  apiKey: string;
  /** Prefix before the token in `Authorization`, e.g. "Bearer"; default "" (raw token). */
  authScheme?: string;
  /** Max requests in flight over the whole client (and sockets to the portal); default 16. */
  concurrency?: number;
  /** Max requests started per second; default unlimited. */
  rate?: number;
  /** `limit` asked for by `pages`/`takePages`; default 500. */
  pageSize?: number;
  /** Attempts per request, first included; default 6. */
  maxAttempts?: number;
  /** Header and body timeout, ms; default 30 000. */
  timeoutMs?: number;
  /** Backoff before the first retry, ms (jittered, doubling); default 250. */
  retryBaseMs?: number;
  /** Cap of the backoff, ms; default 15 000. */
  retryMaxMs?: number;
  logger?: Logger;
  /** Aborts everything in flight and every later call. */
  signal?: AbortSignal;
}

/**
 * The client. Every method may reject with an `ApiError` subclass (see errors.ts) or with the
 * abort reason of `signal`. `get*` methods resolve `null` for an id the portal does not know;
 * edits reject with `NotFoundError` for one. Records are typed, not validated.
 */
export interface LmsClient {
  /** Requests a token now (otherwise the first call does); `AuthError` on a refused key. */
  authenticate(): Promise<void>;
  /** Every page of a list resource; see paginate.ts for order, re-reads and resume. */
  pages<R extends ListedResource>(
    resource: R,
    options?: PagesOptions,
  ): AsyncIterable<ListPage<ApiRecord<R>>>;
  /** Every page of one user's takes; a user the portal does not know has none. */
  takePages(userId: number, options?: PagesOptions): AsyncIterable<ListPage<ApiRecord<"take">>>;

  listGroups(body?: ListRequest): Promise<ListResponse<ApiRecord<"grp">>>;
  editGroup(id: number, body: EditBody<"grp">): Promise<ApiRecord<"grp">>;
  getGroupByExternalId(externalId: string): Promise<ApiRecord<"grp"> | null>;

  listProductAccess(body?: ListRequest): Promise<ListResponse<ApiRecord<"product_access">>>;
  editProductAccess(
    id: number,
    body: EditBody<"product_access">,
  ): Promise<ApiRecord<"product_access">>;
  getProductAccess(id: number): Promise<ApiRecord<"product_access"> | null>;

  createUserGroup(body: NewUserGroup): Promise<ApiRecord<"user_grp">>;
  listUserGroups(body?: ListRequest): Promise<ListResponse<ApiRecord<"user_grp">>>;

  editUser(id: number, body: UserEditBody): Promise<ApiRecord<"user">>;

  /** One page of a user's takes; a user the portal does not know has none. */
  listTakesForUser(userId: number, body?: ListRequest): Promise<ListResponse<ApiRecord<"take">>>;

  getProduct(id: number): Promise<ApiRecord<"product"> | null>;

  listAvailabilities(body?: ListRequest): Promise<ListResponse<ApiRecord<"svc_availability">>>;
  getAvailability(id: number): Promise<ApiRecord<"svc_availability"> | null>;
  getAvailabilityGroup(id: number): Promise<ApiRecord<"availability_group"> | null>;

  stats(): ClientStats;
  /** Waits for requests in flight, then closes the connections. */
  close(): Promise<void>;
}

/** Operation names of the list resources (used in stats, logs and messages). */
const LIST_OPERATION: Record<ListedResource, string> = {
  grp: "listGroups",
  user_grp: "listUserGroups",
  product_access: "listProductAccess",
  svc_availability: "listAvailabilities",
};

const DEFAULTS = {
  concurrency: 16,
  pageSize: 500,
  maxAttempts: 6,
  timeoutMs: 30_000,
  retryBaseMs: 250,
  retryMaxMs: 15_000,
} as const;

export function createClient(options: ClientOptions): LmsClient {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const concurrency = positiveInteger("concurrency", options.concurrency, DEFAULTS.concurrency);
  const defaultPageSize = positiveInteger("pageSize", options.pageSize, DEFAULTS.pageSize);
  const logger = options.logger ?? silentLogger;
  const transport = new Transport({
    baseUrl,
    apiKey: options.apiKey,
    authScheme: options.authScheme ?? "",
    concurrency,
    rate: options.rate,
    maxAttempts: positiveInteger("maxAttempts", options.maxAttempts, DEFAULTS.maxAttempts),
    timeoutMs: positiveInteger("timeoutMs", options.timeoutMs, DEFAULTS.timeoutMs),
    retryBaseMs: nonNegative("retryBaseMs", options.retryBaseMs, DEFAULTS.retryBaseMs),
    retryMaxMs: nonNegative("retryMaxMs", options.retryMaxMs, DEFAULTS.retryMaxMs),
    logger,
    signal: options.signal,
  });
  const endpoints = {
    grp: RESOURCES.grp.endpoints,
    userGrp: RESOURCES.user_grp.endpoints,
    user: RESOURCES.user.endpoints,
    productAccess: RESOURCES.product_access.endpoints,
    take: RESOURCES.take.endpoints.listFor.path,
    availability: RESOURCES.svc_availability.endpoints,
    availabilityGroup: RESOURCES.availability_group.endpoints,
    product: RESOURCES.product.endpoints,
  };

  const post = (operation: string, path: string, body: unknown, write = false): Call => ({
    operation,
    method: "POST",
    path,
    body,
    write,
  });
  const get = (operation: string, path: string): Call => ({ operation, method: "GET", path });

  async function list<T>(call: Call): Promise<ListResponse<T>> {
    const content = await transport.list(call);
    return toResponse<T>(content);
  }
  /** A list scoped to a parent that does not exist holds nothing (survives 404 or empty). */
  async function listForParent<T>(call: Call): Promise<ListResponse<T>> {
    try {
      return await list<T>(call);
    } catch (error) {
      if (error instanceof NotFoundError) return { total: 0, result: [] };
      throw error;
    }
  }
  async function single<T>(call: Call): Promise<T> {
    // The record's shape is the portal's promise; the loader checks every field.
    return (await transport.single(call)) as T;
  }
  async function maybe<T>(call: Call): Promise<T | null> {
    try {
      return await single<T>(call);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  function pagesOf<T>(
    operation: string,
    path: string,
    key: string,
    pageOptions: PagesOptions,
    notFoundIsEmpty: boolean,
  ): AsyncIterable<ListPage<T>> {
    const pageSize = positiveInteger("pageSize", pageOptions.pageSize, defaultPageSize);
    return paginate<T>({
      pageSize,
      key,
      window: 2 * concurrency,
      skipStarts: pageOptions.skipStarts,
      onSummary: pageOptions.onSummary,
      logger,
      label: `${operation} (${baseUrl.pathname.replace(/\/+$/, "")}${path})`,
      fetchPage: async (start, limit, signal, extra) => {
        const body: ListRequest = { start, limit };
        const criteria = [...(pageOptions.criteria ?? []), ...(extra ?? [])];
        if (pageOptions.criteria !== undefined || criteria.length > 0) body.criterias = criteria;
        try {
          return await transport.list({ ...post(operation, path, body), signal });
        } catch (error) {
          if (notFoundIsEmpty && error instanceof NotFoundError) return { total: 0, records: [] };
          throw error;
        }
      },
    });
  }

  return {
    authenticate: () => transport.authenticate(),
    pages: <R extends ListedResource>(resource: R, pageOptions: PagesOptions = {}) => {
      const path = RESOURCES[resource].endpoints.list;
      const key = RESOURCES[resource].primaryKey;
      return pagesOf<ApiRecord<R>>(LIST_OPERATION[resource], path, key, pageOptions, false);
    },
    takePages: (userId, pageOptions = {}) =>
      pagesOf<ApiRecord<"take">>(
        "listTakesForUser",
        fill(endpoints.take, { id: userId }),
        RESOURCES.take.primaryKey,
        pageOptions,
        true,
      ),

    listGroups: (body = {}) => list(post("listGroups", endpoints.grp.list, body)),
    editGroup: (id, body) =>
      single(post("editGroup", fill(endpoints.grp.edit, { id }), body, true)),
    getGroupByExternalId: (externalId) =>
      maybe(
        get(
          "getGroupByExternalId",
          fill(endpoints.grp.getByExternalId, { external_id: externalId }),
        ),
      ),

    listProductAccess: (body = {}) =>
      list(post("listProductAccess", endpoints.productAccess.list, body)),
    editProductAccess: (id, body) =>
      single(post("editProductAccess", fill(endpoints.productAccess.edit, { id }), body, true)),
    getProductAccess: (id) =>
      maybe(get("getProductAccess", fill(endpoints.productAccess.get, { id }))),

    createUserGroup: (body) =>
      single(post("createUserGroup", endpoints.userGrp.create, body, true)),
    listUserGroups: (body = {}) => list(post("listUserGroups", endpoints.userGrp.list, body)),

    editUser: (id, body) => single(post("editUser", fill(endpoints.user.edit, { id }), body, true)),

    listTakesForUser: (userId, body = {}) =>
      listForParent(post("listTakesForUser", fill(endpoints.take, { id: userId }), body)),

    getProduct: (id) => maybe(get("getProduct", fill(endpoints.product.get, { id }))),

    listAvailabilities: (body = {}) =>
      list(post("listAvailabilities", endpoints.availability.list, body)),
    getAvailability: (id) =>
      maybe(get("getAvailability", fill(endpoints.availability.get, { id }))),
    getAvailabilityGroup: (id) =>
      maybe(get("getAvailabilityGroup", fill(endpoints.availabilityGroup.get, { id }))),

    stats: () => transport.stats(),
    close: () => transport.close(),
  };
}

function toResponse<T>(content: ListContent): ListResponse<T> {
  // Typing the records is the portal's promise; the loader validates every field.
  return { total: content.total, result: content.records as T[] };
}

/**
 * Fills `{name}` placeholders of a registry path. Ids must be safe integers; other values are
 * percent-encoded so an external id cannot change the path.
 */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`no value for {${name}} in ${template}`);
    if (typeof value === "number" && !Number.isSafeInteger(value)) {
      throw new RangeError(`{${name}} must be an integer, got ${value}`);
    }
    return encodeURIComponent(String(value));
  });
}

function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`invalid base URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`the base URL must be http(s), got ${url.protocol}`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw new TypeError("the base URL must not carry a query string or fragment");
  }
  return url;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative number, got ${value}`);
  }
  return value;
}
