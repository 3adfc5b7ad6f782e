// Type tests (vitest typecheck): the facade takes the POST operation's body and answers its success body,
// wrong fields do not compile, errors narrow by `type`, and only paginated operations have `all` / `pages`.
import {
  type AllResult,
  ApiError,
  type ApiErrorBody,
  createClient,
  type ErrorOfType,
  type PageResults,
  unwrap,
} from "@workapi/client";
import type {
  CodeChange,
  ErrorBody,
  ObservabilitySessionRecording,
  RequestBody,
  SuccessBody,
  Tag,
  Work,
} from "@workapi/types";
import { describe, expectTypeOf, it } from "vitest";

const api = createClient({ baseUrl: "http://localhost:8080", token: "t" });
const throwing = createClient({
  baseUrl: "http://localhost:8080",
  token: async () => "t",
  throwOnError: true,
});

describe("facade input and output", () => {
  it("takes RequestBody of the POST operation and answers SuccessBody", () => {
    expectTypeOf(api.works.export).parameter(0).toEqualTypeOf<RequestBody<"works-export-post"> | undefined>();
    expectTypeOf(api.codeChanges.get).parameter(0).toEqualTypeOf<RequestBody<"code-changes-get-post">>();
    expectTypeOf(api.works.delete).parameter(0).toEqualTypeOf<RequestBody<"works-delete">>();
    expectTypeOf(api.tags.list).returns.resolves.toHaveProperty("data");

    type Export = Awaited<ReturnType<typeof api.works.export>>;
    expectTypeOf<NonNullable<Export["data"]>>().toEqualTypeOf<SuccessBody<"works-export-post">>();
    expectTypeOf<NonNullable<Export["data"]>["works"]>().toEqualTypeOf<Work[]>();
    expectTypeOf<NonNullable<Export["error"]>>().toEqualTypeOf<ErrorBody<"works-export-post">>();

    type Change = NonNullable<Awaited<ReturnType<typeof api.codeChanges.get>>["data"]>;
    expectTypeOf<Change["code_change"]>().toEqualTypeOf<CodeChange>();
    type Session = NonNullable<Awaited<ReturnType<typeof api.observability.sessions.data.get>>["data"]>;
    expectTypeOf<Session>().toEqualTypeOf<ObservabilitySessionRecording>();
  });

  it("refuses wrong and missing fields", () => {
    // @ts-expect-error `count` is not a works.export field (it is `first`)
    void api.works.export({ count: 10 });
    // @ts-expect-error `epic` is not a work type
    void api.works.export({ type: ["epic"] });
    // @ts-expect-error code-changes.get needs its id
    void api.codeChanges.get();
    // @ts-expect-error the id is a string
    void api.codeChanges.get({ id: 7 });
    // @ts-expect-error tags.list has no `title`
    void api.tags.list({ title: "x" });
    // @ts-expect-error stages.custom.get has no `names`
    void api.stages.custom.get({ id: "STG-1", names: [] });
    // @ts-expect-error not an operation
    void api.works.archive;
    // @ts-expect-error `retries` is not a call option
    void api.tags.list({}, { retries: 3 });
  });

  it("takes a Blob for the file field of a multipart operation", () => {
    void api.artifacts.upload({ id: "ARTIFACT-3", file: new Blob(["x"]), file_name: "x.txt" });
    void api.artifacts.upload({ id: "ARTIFACT-3", file: "plain text content" });
    // @ts-expect-error only file fields take a Blob
    void api.artifacts.upload({ id: new Blob(["x"]), file: new Blob(["x"]) });
    // @ts-expect-error the file is required
    void api.artifacts.upload({ id: "ARTIFACT-3" });
    type Uploaded = NonNullable<Awaited<ReturnType<typeof api.artifacts.upload>>["data"]>;
    expectTypeOf<Uploaded>().toEqualTypeOf<SuccessBody<"artifacts-upload">>();
  });

  it("types the call options", () => {
    void api.tags.list(
      { limit: 10 },
      {
        signal: AbortSignal.timeout(1000),
        deadline: 5000,
        retry: { maxRetries: 4, baseDelay: 100, maxDelay: 2000, jitter: false },
        headers: { "x-vendor-version": "2024-01-24" },
      },
    );
    void api.tags.list({}, { retry: false });
  });
});

describe("errors", () => {
  it("narrows the error of an answer by its type", async () => {
    const { data, error } = await api.tags.list();
    if (error) {
      expectTypeOf(data).toEqualTypeOf<undefined>();
      if (error.type === "too_many_requests") {
        expectTypeOf(error.retry_after).toEqualTypeOf<number>();
        expectTypeOf(error).toExtend<ErrorOfType<"too_many_requests">>();
      }
      if (error.type === "internal_error") expectTypeOf(error.reference_id).toEqualTypeOf<string>();
      // @ts-expect-error a 403 body has no retry_after
      if (error.type === "forbidden") void error.retry_after;
    } else {
      expectTypeOf(data.tags).toEqualTypeOf<Tag[]>();
    }
  });

  it("answers data without an error union when the client or the call throws", async () => {
    const thrown = await throwing.tags.list();
    expectTypeOf(thrown.data).toEqualTypeOf<SuccessBody<"tags-list-post">>();
    expectTypeOf(thrown.error).toEqualTypeOf<undefined>();
    const perCall = await api.works.export({}, { throwOnError: true });
    expectTypeOf(perCall.data.works).toEqualTypeOf<Work[]>();
    const backOn = await throwing.works.export({}, { throwOnError: false });
    expectTypeOf(backOn.data).toEqualTypeOf<SuccessBody<"works-export-post"> | undefined>();
  });

  it("types ApiError and unwrap()", async () => {
    expectTypeOf<ApiError["body"]>().toEqualTypeOf<ApiErrorBody>();
    expectTypeOf<ApiError["status"]>().toEqualTypeOf<number>();
    expectTypeOf<ApiError["requestId"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ApiError["response"]>().toEqualTypeOf<Response>();
    const error = new ApiError(new Response(null, { status: 429 }), undefined);
    if (error.body.type === "too_many_requests") expectTypeOf(error.body.retry_after).toEqualTypeOf<number>();
    expectTypeOf(unwrap(await api.tags.list())).toEqualTypeOf<SuccessBody<"tags-list-post">>();
    // openapi-fetch's own answers are its Readable<> view of the same types.
    const page = unwrap(await api.GET("/tags.list"));
    expectTypeOf(page.tags[0]?.name).toEqualTypeOf<string | undefined>();
    // @ts-expect-error unwrap() leaves no undefined
    expectTypeOf(page).toEqualTypeOf<undefined>();
  });
});

describe("pagination", () => {
  it("answers every entry as one result, and each page as a call's result", () => {
    expectTypeOf(api.tags.list.all()).toEqualTypeOf<Promise<AllResult<"tags-list-post", "tags", false>>>();
    expectTypeOf(api.vistas.list.all({ limit: 100 }, { mode: "before", max: 500 })).toEqualTypeOf<
      Promise<AllResult<"vistas-list-post", "vistas", false>>
    >();
    expectTypeOf(api.tags.list.pages()).toEqualTypeOf<PageResults<"tags-list-post", false>>();
    expectTypeOf(api.paginate("tags.list", { limit: 10 })).toEqualTypeOf<
      Promise<AllResult<"tags-list-post", "tags", false>>
    >();
    expectTypeOf(api.paginate("vistas.list", {}, { pages: true })).toEqualTypeOf<
      PageResults<"vistas-list-post", false>
    >();
  });

  it("has data without an error union when the client or the call throws", async () => {
    const all = await api.tags.list.all({}, { throwOnError: true });
    expectTypeOf(all.data).toEqualTypeOf<Tag[]>();
    const some = await throwing.tags.list.all({ limit: 10 }, { max: 20 });
    expectTypeOf(some.data).toEqualTypeOf<Tag[]>();
    for await (const page of throwing.tags.list.pages()) expectTypeOf(page.data.tags).toEqualTypeOf<Tag[]>();
    const maybe = await api.tags.list.all();
    expectTypeOf(maybe.data).toEqualTypeOf<Tag[] | undefined>();
    if (maybe.error) expectTypeOf(maybe.error.type).toExtend<string>();
  });

  it("reads the fields the server always answers without `!` (strict mode)", async () => {
    const { data } = await throwing.tags.list();
    const names: string[] = data.tags.map((tag) => tag.name);
    expectTypeOf(names).toEqualTypeOf<string[]>();
    expectTypeOf<Tag["name"]>().toEqualTypeOf<string>();
  });

  it("has no pagination helpers on operations without cursors", () => {
    // @ts-expect-error works.export is not paginated
    void api.works.export.all;
    // @ts-expect-error works.export is not paginated
    void api.works.export.pages;
    // @ts-expect-error auth-tokens.list is not paginated
    void api.authTokens.list.all;
    // @ts-expect-error works.export is not paginated
    void api.paginate("works.export");
  });

  it("refuses wrong pagination params and options", () => {
    // @ts-expect-error `mode` is a pagination option, not a param
    void api.tags.list.all({ mode: "before" });
    // @ts-expect-error `sideways` is not a mode
    void api.tags.list.all({}, { mode: "sideways" });
    // @ts-expect-error the most entries is `max`; `limit` is the page size, a param
    void api.tags.list.all({}, { limit: 500 });
    // @ts-expect-error tags.list has no `title`
    void api.paginate("tags.list", { title: "x" });
  });
});

describe("the openapi-fetch client", () => {
  it("keeps every path and method typed", async () => {
    const { data } = await api.GET("/tags.list", { params: { query: { name: ["bug"], limit: 5 } } });
    expectTypeOf(data).toExtend<SuccessBody<"tags-list"> | undefined>();
    expectTypeOf(data?.next_cursor).toEqualTypeOf<string | undefined>();
    // @ts-expect-error works.delete has no GET form
    void api.GET("/works.delete");
    // @ts-expect-error /works.archive is not a path
    void api.POST("/works.archive", { body: {} });
    expectTypeOf(api.use).toBeFunction();
    expectTypeOf(api.eject).toBeFunction();
  });
});
