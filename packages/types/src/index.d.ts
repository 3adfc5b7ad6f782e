// Friendly names for the generated types in ./schema.d.ts (which `pnpm generate` writes from spec/).
import type { components, operations } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

type Schemas = components["schemas"];

/** The operationId of every operation in the contract (`works-export`, `works-export-post`, ...). */
export type OperationId = keyof operations;

/** The JSON body an operation accepts (never for operations that take only a query string). */
export type RequestBody<Id extends OperationId> = operations[Id] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

/** The query parameters an operation accepts. */
export type QueryParameters<Id extends OperationId> = operations[Id] extends {
  parameters: { query?: infer Query };
}
  ? NonNullable<Query>
  : never;

type Responses<Id extends OperationId> = operations[Id]["responses"];
type JsonOf<R> = R extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON body of an operation's success answer (200 or 201). */
export type SuccessBody<Id extends OperationId> = {
  [Status in keyof Responses<Id>]: Status extends 200 | 201 ? JsonOf<Responses<Id>[Status]> : never;
}[keyof Responses<Id>];

/** The JSON bodies of an operation's error answers, a union told apart by `type`. */
export type ErrorBody<Id extends OperationId> = {
  [Status in keyof Responses<Id>]: Status extends 200 | 201 ? never : JsonOf<Responses<Id>[Status]>;
}[keyof Responses<Id>];

// Records and shared shapes, named as the interface names them.
export type AuthToken = Schemas["AuthToken"];
export type Vista = Schemas["Vista"];
export type OrgSchedule = Schemas["OrgSchedule"];
export type OrgScheduleFragment = Schemas["OrgScheduleFragment"];
export type Work = Schemas["Work"];
export type WorkType = Schemas["WorkType"];
export type Sla = Schemas["Sla"];
export type SlaPolicy = Schemas["SlaPolicy"];
export type Artifact = Schemas["Artifact"];
export type ArtifactVersion = Schemas["ArtifactVersion"];
export type CodeChange = Schemas["CodeChange"];
export type Part = Schemas["Part"];
export type PartType = Schemas["PartType"];
export type Survey = Schemas["Survey"];
export type ObservabilitySessionRecording = Schemas["ObservabilitySessionRecording"];
export type CustomStage = Schemas["CustomStage"];
export type StageDiagram = Schemas["StageDiagram"];
export type Tag = Schemas["Tag"];
export type Conversation = Schemas["Conversation"];
export type TimelineEntry = Schemas["TimelineEntry"];
export type RevOrg = Schemas["RevOrg"];
export type Article = Schemas["Article"];
export type Account = Schemas["Account"];
export type DevUser = Schemas["DevUser"];
export type CustomObject = Schemas["CustomObject"];
export type Sandbox = Schemas["Sandbox"];
export type SandboxRequest = Schemas["SandboxRequest"];
export type UserSummary = Schemas["UserSummary"];
export type PartSummary = Schemas["PartSummary"];
export type TagWithValue = Schemas["TagWithValue"];
export type StageInfo = Schemas["StageInfo"];
export type FieldDescriptor = Schemas["FieldDescriptor"];
export type TokenType = Schemas["TokenType"];
export type DateFilter = Schemas["DateFilter"];

// Errors: each body is `{type, message, detail}` plus the fields of its type.
export type BadRequestError = Schemas["BadRequestError"];
export type UnauthorizedError = Schemas["UnauthorizedError"];
export type ForbiddenError = Schemas["ErrorForbidden"];
export type NotFoundError = Schemas["ErrorNotFound"];
export type ConflictError = Schemas["ErrorConflict"];
export type RequestEntityTooLargeError = Schemas["ErrorRequestEntityTooLarge"];
export type TooManyRequestsError = Schemas["ErrorTooManyRequests"];
export type InternalError = Schemas["ErrorInternal"];
export type ServiceUnavailableError = Schemas["ErrorServiceUnavailable"];

/** Any error body the interface defines, told apart by `type`. */
export type ApiErrorBody =
  | BadRequestError
  | UnauthorizedError
  | ForbiddenError
  | NotFoundError
  | ConflictError
  | RequestEntityTooLargeError
  | TooManyRequestsError
  | InternalError
  | ServiceUnavailableError;

/** Every error `type` value of the interface. */
export type ErrorType = ApiErrorBody["type"];

/** The error body of one `type`, e.g. `ErrorOfType<"too_many_requests">` has `retry_after`. */
export type ErrorOfType<T extends ErrorType> = OfType<ApiErrorBody, T>;
type OfType<E, T> = E extends { type: infer U } ? (T extends U ? E & { type: T } : never) : never;
