// @workapi/client: a typed client of the workapi work-management interface.
export type { ApiErrorBody, ErrorOfType, ErrorType } from "@workapi/types";
export {
  type ClientOptions,
  createClient,
  type Paginate,
  type PaginatedName,
  type WorkApiClient,
} from "./client.js";
export type { DeprecationHook, DeprecationNotice } from "./deprecation.js";
export { type AnyResult, ApiError, unwrap } from "./errors.js";
export type { Facade, OperationIds } from "./generated/operations.js";
export type {
  AllResult,
  CallOptions,
  Operation,
  PageItem,
  PageOptions,
  PageResults,
  PaginatedOperation,
  Result,
  RetryOptions,
} from "./operation.js";
export {
  type Fetch,
  type Middleware,
  type MiddlewareParams,
  retryDefaults,
  type TokenSource,
} from "./transport.js";
