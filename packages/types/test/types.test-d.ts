// Type tests (vitest typecheck): the generated types describe the contract, and wrong fields do not compile.

import type {
  ApiErrorBody,
  ErrorBody,
  ErrorOfType,
  OperationId,
  paths,
  QueryParameters,
  RequestBody,
  SuccessBody,
  Tag,
  Work,
  WorkType,
} from "@workapi/types";
import { describe, expectTypeOf, it } from "vitest";

describe("operations", () => {
  it("names every operation by its operationId", () => {
    expectTypeOf<"works-export">().toExtend<OperationId>();
    expectTypeOf<"works-export-post">().toExtend<OperationId>();
    expectTypeOf<"code-changes-get">().toExtend<OperationId>();
    // @ts-expect-error works.export has no `works-export-put`
    expectTypeOf<"works-export-put">().toExtend<OperationId>();
  });

  it("types the works.export body and answer", () => {
    type Body = RequestBody<"works-export-post">;
    expectTypeOf<Body["first"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NonNullable<Body["type"]>>().toEqualTypeOf<WorkType[]>();
    expectTypeOf<SuccessBody<"works-export-post">>().toEqualTypeOf<{ works: Work[] }>();
    const body: Body = { type: ["issue", "ticket"], first: 100, sort_by: ["created_date:desc"] };
    expectTypeOf(body).toExtend<Body>();
    // @ts-expect-error `count` is not a works.export field (the interface calls it `first`)
    const wrong: Body = { count: 10 };
    // @ts-expect-error `epic` is not a work type
    const wrongType: Body = { type: ["epic"] };
    void wrong;
    void wrongType;
  });

  it("types the tags.list query and page", () => {
    type Query = QueryParameters<"tags-list">;
    expectTypeOf<Query["name"]>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Query["mode"]>().toEqualTypeOf<"after" | "before" | undefined>();
    type Page = SuccessBody<"tags-list">;
    expectTypeOf<Page["tags"]>().toEqualTypeOf<Tag[]>();
    expectTypeOf<Page["next_cursor"]>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error a page has no `total`
    type _Total = Page["total"];
  });

  it("reaches the same types through paths", () => {
    type Get = paths["/code-changes.get"]["get"];
    expectTypeOf<Get["parameters"]["query"]["id"]>().toEqualTypeOf<string>();
    expectTypeOf<SuccessBody<"code-changes-get">["code_change"]["id"]>().toEqualTypeOf<string>();
  });
});

describe("records", () => {
  it("gives a work its interface fields", () => {
    expectTypeOf<Work["id"]>().toEqualTypeOf<string>();
    expectTypeOf<Work["type"]>().toEqualTypeOf<WorkType>();
    expectTypeOf<NonNullable<Work["stage"]>["name"]>().toEqualTypeOf<string | undefined>();
    // A ticket's severity is one of the platform's four values, not any string.
    expectTypeOf<Work["severity"]>().toEqualTypeOf<"blocker" | "high" | "low" | "medium" | undefined>();
    // @ts-expect-error works have no `flavor` field (that is a vista's)
    type _Flavor = Work["flavor"];
  });
});

describe("errors", () => {
  it("narrows an error body by type", () => {
    const handle = (error: ApiErrorBody): number | string | undefined => {
      if (error.type === "too_many_requests") return error.retry_after;
      if (error.type === "request_entity_too_large") return error.max_bytes;
      if (error.type === "internal_error") return error.reference_id;
      if (error.type === "missing_required_field") return error.field_name;
      // @ts-expect-error only too_many_requests carries retry_after
      return error.retry_after;
    };
    expectTypeOf(handle).returns.toEqualTypeOf<number | string | undefined>();
    expectTypeOf<ErrorOfType<"too_many_requests">["retry_after"]>().toEqualTypeOf<number>();
    expectTypeOf<ErrorOfType<"invalid_field">["field_name"]>().toEqualTypeOf<string>();
  });

  it("lists an operation's errors", () => {
    expectTypeOf<ErrorOfType<"conflict">>().toExtend<ErrorBody<"rev-orgs-create">>();
    expectTypeOf<ErrorOfType<"not_found">>().toExtend<ErrorBody<"articles-get">>();
  });
});
