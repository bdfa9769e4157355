/**
 * lms-export as a library: the typed client of the portal's API v2, with authentication, retries
 * and the shared limiter, and the typed failure of the stages below the command line
 * (`LmsExportError` with its `code`). Everything else in the package is the command line's and
 * may change.
 */
export {
  type ClientOptions,
  type ClientStats,
  type Criterion,
  createClient,
  type EditBody,
  type ListedResource,
  type ListPage,
  type ListRequest,
  type ListResponse,
  type ListSummary,
  type LmsClient,
  type NewUserGroup,
  type Operator,
  type PagesOptions,
  type UserEditBody,
} from "./api/client.js";
export {
  ApiError,
  type ApiErrorCode,
  AuthError,
  EnvelopeError,
  type EnvelopeProblem,
  HttpError,
  NetworkError,
  type NetworkPhase,
  NotFoundError,
  RetryBudgetError,
} from "./api/errors.js";
export { FAILURE_CODES, type FailureCode, LmsExportError } from "./errors/lms-export-error.js";
export type {
  ApiRecord,
  Availability,
  AvailabilityGroup,
  Group,
  Product,
  ProductAccess,
  Take,
  User,
  UserGroupLink,
} from "./resources/record-types.js";
export type { ResourceName } from "./resources/types.js";
