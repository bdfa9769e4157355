/**
 * What each operation answers, once the request is authenticated and its body parsed.
 * Success bodies follow the spec's envelope: `{status:true, total, result}` for lists,
 * `{status:true, result}` for one record, `{status:true, token}` for /token.
 */
import type { ResourceName } from "../resources/types.js";
import type { EditableName, ListedName, SimulatorData } from "./data.js";
import type { FaultConfig, MissingIdAnswer } from "./faults.js";
import { parseListRequest } from "./request-body.js";
import { badRequest, notFound, RequestError } from "./request-error.js";
import type { RouteMatch } from "./router.js";
import type { TokenStore } from "./tokens.js";

/** What the handlers read and change. */
export interface HandlerContext {
  readonly data: SimulatorData;
  readonly faults: Readonly<FaultConfig>;
  readonly tokens: TokenStore;
  readonly apiKey: string;
  readonly maxLimit: number;
  /** Called once per token issued. */
  readonly onToken: () => void;
}

const LISTED: readonly string[] = ["grp", "user_grp", "product_access", "svc_availability", "take"];
const EDITABLE: readonly string[] = ["grp", "product_access", "user"];
const isListed = (name: ResourceName): name is ListedName => LISTED.includes(name);
const isEditable = (name: ResourceName): name is EditableName => EDITABLE.includes(name);

/** A path id: digits only (a positive integer), else 400. */
function idOf(param: string | undefined): number {
  if (param === undefined || !/^\d{1,15}$/.test(param)) {
    throw badRequest(
      `the id in the path must be a positive integer, got ${JSON.stringify(param ?? "")}`,
    );
  }
  return Number(param);
}

function token(body: unknown, ctx: HandlerContext): unknown {
  const apikey =
    typeof body === "object" && body !== null ? (body as { apikey?: unknown }).apikey : undefined;
  if (typeof apikey !== "string" || apikey !== ctx.apiKey)
    throw new RequestError(401, "invalid api key");
  ctx.onToken();
  return { status: true, token: ctx.tokens.issue() };
}

function list(
  resource: ListedName,
  body: unknown,
  parentId: number | undefined,
  ctx: HandlerContext,
): unknown {
  const request = parseListRequest(body, ctx.maxLimit, ctx.faults.refuseLimitAbove);
  const inserts = Math.floor(ctx.faults.insertWhilePaging);
  const removals = Math.floor(ctx.faults.deleteWhilePaging);
  // Inserted and removed before answering, so this very page already sees the shifted offsets.
  if (inserts > 0 && request.start > 0) ctx.data.insert(resource, inserts, parentId);
  if (removals > 0 && request.start > 0) ctx.data.remove(resource, removals, parentId);
  const order = ctx.faults.unstableOrder ? "random" : "newest";
  const anyOf = ctx.faults.criteriaAnyOf;
  const page = ctx.data.page(resource, { ...request, parentId, order, anyOf });
  // As JSON.stringify would print {status, total, result}, with the records' text as it is.
  return new JsonText(`{"status":true,"total":${page.total},"result":${page.resultJson}}`);
}

/** An answer already printed as JSON. */
class JsonText {
  constructor(readonly text: string) {}
}

function single(resource: ResourceName, id: number, ctx: HandlerContext): unknown {
  const record = ctx.data.get(resource, id);
  if (!record) return missing(`${resource} ${id} not found`, ctx);
  return { status: true, result: record };
}

/** The answers of MISSING_ID_ANSWERS that are a 200 envelope with an empty `result`. */
type EmptyResult = Exclude<MissingIdAnswer, "not-found" | "empty-body">;

/** The `result` each of them prints. */
const EMPTY_RESULTS: Readonly<Record<EmptyResult, string>> = {
  null: "null",
  "empty-array": "[]",
  "empty-object": "{}",
  false: "false",
};

/** The answer to a read of an id that matches no record, as `missingIdAnswer` says. */
function missing(message: string, ctx: HandlerContext): JsonText {
  const answer = ctx.faults.missingIdAnswer;
  if (answer === "not-found") throw notFound(message);
  if (answer === "empty-body") return new JsonText("");
  return new JsonText(`{"status":true,"result":${EMPTY_RESULTS[answer]}}`);
}

function byExternalId(param: string | undefined, ctx: HandlerContext): unknown {
  let externalId: string;
  try {
    externalId = decodeURIComponent(param ?? "");
  } catch {
    throw badRequest("the external id in the path is not valid percent-encoding");
  }
  const record = ctx.data.groupByExternalId(externalId);
  if (!record) return missing(`grp with external id ${externalId} not found`, ctx);
  return { status: true, result: record };
}

/** The 200 body of an operation as JSON text, or a RequestError (4xx). */
export function handle(match: RouteMatch, body: unknown, ctx: HandlerContext): string {
  const answer = answerOf(match, body, ctx);
  return answer instanceof JsonText ? answer.text : JSON.stringify(answer);
}

function answerOf(match: RouteMatch, body: unknown, ctx: HandlerContext): unknown {
  const { route, param } = match;
  const resource = route.resource;
  if (route.kind === "token" || resource === undefined) return token(body, ctx);
  switch (route.kind) {
    case "list":
    case "listFor":
      if (!isListed(resource)) break;
      return list(resource, body, route.kind === "listFor" ? idOf(param) : undefined, ctx);
    case "get":
      return single(resource, idOf(param), ctx);
    case "edit":
      if (!isEditable(resource)) break;
      return { status: true, result: ctx.data.edit(resource, idOf(param), body) };
    case "create":
      if (resource !== "user_grp") break;
      return { status: true, result: ctx.data.createUserGroup(body) };
    case "getByExternalId":
      return byExternalId(param, ctx);
  }
  throw new Error(`no handler for ${route.operation}`);
}
