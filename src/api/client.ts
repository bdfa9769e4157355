/**
 * The LMS API v2 client: every operation of the spec, typed from the registry, plus paginated
 * listing. Paths come from the registry's `endpoints`; nothing here restates them.
 */

import {
  DEFAULT_CLIENT_CONCURRENCY,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_MAX_OVERLOAD_WAIT_MS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_RETRY_MAX_MS,
  DEFAULT_TIMEOUT_MS,
} from "../config/defaults.js";
import { type Logger, silentLogger } from "../log/logger.js";
import type { ApiRecord } from "../resources/record-types.js";
import { RESOURCES } from "../resources/registry.js";
import { isLoopbackHost } from "../security/loopback.js";
import type { AdaptiveSettings } from "./adaptive-limit.js";
import { Calls, get, post } from "./calls.js";
import { ConcurrencyControl, type PaceFigures } from "./concurrency-control.js";
import { nonNegative, positiveInteger } from "./option-checks.js";
import type { ListPage, PagesOptions } from "./paginate.js";
import { childRead, fill, listRead, lookupRead } from "./reads.js";
import { formMemoryFile } from "./remembered-form.js";
import type { ClientStats } from "./stats.js";
import { Transport } from "./transport.js";
import type {
  ChildResource,
  EditBody,
  ListedResource,
  ListRequest,
  ListResponse,
  LookupResource,
  NewUserGroup,
  UserEditBody,
} from "./types.js";

export type { PaceFigures } from "./concurrency-control.js";
export type { ListPage, ListSummary, PagesOptions } from "./paginate.js";
export type { ClientStats } from "./stats.js";
export type {
  ChildResource,
  Criterion,
  EditBody,
  ListedResource,
  ListRequest,
  ListResponse,
  LookupResource,
  NewUserGroup,
  Operator,
  UserEditBody,
} from "./types.js";

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The portal's API address, e.g. `https://lms.example.org/api-v2`; every path is appended. */
  baseUrl: string;
  apiKey: string;
  /**
   * Allow a plain `http://` base URL on a host that is not this machine, where the key and the
   * token cross the network unencrypted; default false (such a URL is a TypeError).
   */
  allowHttp?: boolean;
  /**
   * Prefix before the token in `Authorization`, e.g. "Bearer", or "" for the raw token. Default:
   * the raw token, switching to `Bearer` for the run if the portal refuses a fresh raw token and
   * accepts it with the prefix (see authorization-form.ts).
   */
  authScheme?: string;
  /**
   * A file where the form of `Authorization` the portal accepted is kept between runs (JSON, by
   * base URL): a run then starts with it (see remembered-form.ts). Default: not kept.
   */
  authFormsFile?: string;
  /**
   * Max requests in flight over the whole client (and sockets to the portal), or "auto" to adapt
   * it to the portal's answers (see adaptive-limit.ts); default DEFAULT_CLIENT_CONCURRENCY.
   */
  concurrency?: number | "auto";
  /** The most requests in flight "auto" may reach; default DEFAULT_MAX_CONCURRENCY. */
  maxConcurrency?: number;
  /** Tuning of "auto" (tests, the benchmark); default DEFAULT_ADAPTIVE. */
  adaptive?: Partial<AdaptiveSettings>;
  /** With "auto", how long one call may wait in all on "too busy" answers; default DEFAULT_MAX_OVERLOAD_WAIT_MS. */
  maxOverloadWaitMs?: number;
  /** Max requests started per second; default unlimited. */
  rate?: number;
  /** `limit` asked for by `pages`/`takePages`; default DEFAULT_PAGE_SIZE. */
  pageSize?: number;
  /** Attempts per request, first included; default DEFAULT_MAX_ATTEMPTS. */
  maxAttempts?: number;
  /** Header and body timeout, ms; default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Backoff before the first retry, ms (jittered, doubling); default DEFAULT_RETRY_BASE_MS. */
  retryBaseMs?: number;
  /** Cap of the backoff, ms; default DEFAULT_RETRY_MAX_MS. */
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
  /** Every page of a resource listed per parent; a parent the portal does not know has none. */
  childPages<R extends ChildResource>(
    resource: R,
    parentId: number,
    options?: PagesOptions,
  ): AsyncIterable<ListPage<ApiRecord<R>>>;
  /** One record by id, or `null` for an id the portal does not know. */
  lookup<R extends LookupResource>(resource: R, id: number): Promise<ApiRecord<R> | null>;
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
  /** The pace so far: the limit on requests in flight, its range, latency, overload answers. */
  pace(): PaceFigures;
  /** Waits for requests in flight, then closes the connections. */
  close(): Promise<void>;
}

const DEFAULTS = {
  concurrency: DEFAULT_CLIENT_CONCURRENCY,
  maxConcurrency: DEFAULT_MAX_CONCURRENCY,
  maxOverloadWaitMs: DEFAULT_MAX_OVERLOAD_WAIT_MS,
  pageSize: DEFAULT_PAGE_SIZE,
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  retryBaseMs: DEFAULT_RETRY_BASE_MS,
  retryMaxMs: DEFAULT_RETRY_MAX_MS,
} as const;

export function createClient(options: ClientOptions): LmsClient {
  const { transport, calls } = open(options);
  const reads = genericReads(calls);
  return {
    authenticate: () => transport.authenticate(),
    ...reads,
    ...namedReads(reads, calls),
    ...writes(calls),
    stats: () => transport.stats(),
    pace: () => transport.pace(),
    close: () => transport.close(),
  };
}

type GenericReads = Pick<LmsClient, "pages" | "childPages" | "lookup">;

/** The reads of any resource, as the registry declares them. */
function genericReads(calls: Calls): GenericReads {
  return {
    pages: (resource, pageOptions = {}) => {
      const { operation, path, key } = listRead(resource);
      return calls.pages(operation, path, key, pageOptions, false);
    },
    childPages: (resource, parentId, pageOptions = {}) => {
      const { operation, path, key } = childRead(resource, parentId);
      return calls.pages(operation, path, key, pageOptions, true);
    },
    lookup: (resource, id) => {
      const { operation, path, key } = lookupRead(resource, id);
      return calls.maybe({ ...get(operation, path), asked: { field: key, id } });
    },
  };
}

/** One page of a list resource. */
function listPage<R extends ListedResource>(
  calls: Calls,
  resource: R,
  body: ListRequest,
): Promise<ListResponse<ApiRecord<R>>> {
  const { operation, path } = listRead(resource);
  return calls.list(post(operation, path, body));
}

type NamedRead =
  | "takePages"
  | "listGroups"
  | "listProductAccess"
  | "getProductAccess"
  | "listUserGroups"
  | "listTakesForUser"
  | "getProduct"
  | "listAvailabilities"
  | "getAvailability"
  | "getAvailabilityGroup";

/** The named read operations: each one of the generic reads of its resource. */
function namedReads(reads: GenericReads, calls: Calls): Pick<LmsClient, NamedRead> {
  const { lookup } = reads;
  return {
    takePages: (userId, pageOptions = {}) => reads.childPages("take", userId, pageOptions),
    listGroups: (body = {}) => listPage(calls, "grp", body),
    listProductAccess: (body = {}) => listPage(calls, "product_access", body),
    getProductAccess: (id) => lookup("product_access", id),
    listUserGroups: (body = {}) => listPage(calls, "user_grp", body),
    listTakesForUser: (userId, body = {}) => {
      const { operation, path } = childRead("take", userId);
      return calls.listForParent(post(operation, path, body));
    },
    getProduct: (id) => lookup("product", id),
    listAvailabilities: (body = {}) => listPage(calls, "svc_availability", body),
    getAvailability: (id) => lookup("svc_availability", id),
    getAvailabilityGroup: (id) => lookup("availability_group", id),
  };
}

type Write =
  | "editGroup"
  | "getGroupByExternalId"
  | "editProductAccess"
  | "createUserGroup"
  | "editUser";

/** The operations that change data, and the read by external id that goes with them. */
function writes(calls: Calls): Pick<LmsClient, Write> {
  return {
    editGroup: (id, body) =>
      calls.single(post("editGroup", fill(writePaths.grp.edit, { id }), body, true)),
    getGroupByExternalId: (externalId) =>
      calls.maybe(
        get(
          "getGroupByExternalId",
          fill(writePaths.grp.getByExternalId, { external_id: externalId }),
        ),
      ),
    editProductAccess: (id, body) =>
      calls.single(
        post("editProductAccess", fill(writePaths.productAccess.edit, { id }), body, true),
      ),
    createUserGroup: (body) =>
      calls.single(post("createUserGroup", writePaths.userGrp.create, body, true)),
    editUser: (id, body) =>
      calls.single(post("editUser", fill(writePaths.user.edit, { id }), body, true)),
  };
}

/** Paths of the write operations, from the registry. */
const writePaths = {
  grp: RESOURCES.grp.endpoints,
  userGrp: RESOURCES.user_grp.endpoints,
  user: RESOURCES.user.endpoints,
  productAccess: RESOURCES.product_access.endpoints,
};

/** The transport and the call shapes over it, with the options checked. */
function open(options: ClientOptions): { transport: Transport; calls: Calls } {
  const baseUrl = parseBaseUrl(options.baseUrl, options.allowHttp === true);
  const concurrency =
    options.concurrency === "auto"
      ? "auto"
      : positiveInteger("concurrency", options.concurrency, DEFAULTS.concurrency);
  const maxConcurrency = positiveInteger(
    "maxConcurrency",
    options.maxConcurrency,
    DEFAULTS.maxConcurrency,
  );
  const pageSize = positiveInteger("pageSize", options.pageSize, DEFAULTS.pageSize);
  const logger = options.logger ?? silentLogger;
  const transport = new Transport({
    baseUrl,
    apiKey: options.apiKey,
    authScheme: options.authScheme,
    ...(options.authFormsFile === undefined
      ? {}
      : { formMemory: formMemoryFile(options.authFormsFile, baseUrl) }),
    concurrency,
    maxConcurrency,
    adaptive: options.adaptive,
    maxOverloadWaitMs: nonNegative(
      "maxOverloadWaitMs",
      options.maxOverloadWaitMs,
      DEFAULTS.maxOverloadWaitMs,
    ),
    rate: options.rate,
    maxAttempts: positiveInteger("maxAttempts", options.maxAttempts, DEFAULTS.maxAttempts),
    timeoutMs: positiveInteger("timeoutMs", options.timeoutMs, DEFAULTS.timeoutMs),
    retryBaseMs: nonNegative("retryBaseMs", options.retryBaseMs, DEFAULTS.retryBaseMs),
    retryMaxMs: nonNegative("retryMaxMs", options.retryMaxMs, DEFAULTS.retryMaxMs),
    logger,
    signal: options.signal,
  });
  const calls = new Calls({
    transport,
    baseUrl,
    pageSize,
    window: 2 * ConcurrencyControl.ceiling(concurrency, maxConcurrency),
    logger,
  });
  return { transport, calls };
}

function parseBaseUrl(text: string, allowHttp: boolean): URL {
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
  if (url.protocol === "http:" && !allowHttp && !isLoopbackHost(url.hostname)) {
    throw new TypeError(
      `the base URL ${url.origin} is plain http to another machine, so the API key and the token would cross the network unencrypted: use https, or pass allowHttp: true`,
    );
  }
  return url;
}
