import { Validator } from "@seriousme/openapi-schema-validator";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ZodType } from "zod";
import { STATUS_BY_NAME } from "../src/error-response.ts";
import { createOpenApiDocument } from "../src/openapi-document.ts";
import { OPERATION_EXAMPLES } from "../src/operation-examples.ts";
import { restRoutes } from "../src/rest-routes.ts";
import { appRouter } from "../src/root.ts";
import type { Meta } from "../src/trpc.ts";

const doc = createOpenApiDocument(appRouter, { version: "test" }) as any;

interface Procedure {
  _def: { meta?: Meta; inputs: ZodType[]; output: ZodType };
}
const procedures = appRouter._def.procedures as unknown as Record<string, Procedure>;
const operations = restRoutes(appRouter).map((route) => ({
  name: route.procedurePath,
  meta: route.meta,
  params: route.params,
  op: doc.paths[route.path]?.[route.method.toLowerCase()],
  procedure: procedures[route.procedurePath]!,
}));

const FOUR = [
  ["post", "/api/admin/banners"],
  ["post", "/auth/simple/login"],
  ["get", "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants"],
  ["get", "/api/admin/projects/{projectId}/change-requests/pending"],
] as const;

test("the document validates as OpenAPI 3.1 and every $ref resolves", async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  assert.is(validator.version, "3.1");
  assert.not.throws(() => validator.resolveRefs());
});

test("every routed procedure is an operation with its real success status and no other 2xx", () => {
  assert.ok(operations.length >= 30);
  for (const { name, meta, op } of operations) {
    assert.ok(op, `${name} is documented`);
    const twoHundreds = Object.keys(op.responses).filter((code) => code.startsWith("2"));
    // A step of a browser's sign-in answers a redirect, never JSON (docs/oidc.md#the-flow).
    if (meta.raw?.redirect) {
      assert.equal(twoHundreds, [], name);
      assert.ok(op.responses["302"].headers.Location, `${name} documents its Location`);
      continue;
    }
    const success = String(meta.successStatus ?? 200);
    assert.equal(twoHundreds, [success], name);
  }
  assert.ok(doc.paths["/api/admin/banners"].post.responses["201"]);
});

test("PUT and PATCH variants document the bare JSON arrays they take", () => {
  const path = doc.paths[FOUR[2][1]];
  assert.equal(path.put.requestBody.content["application/json"].schema, {
    type: "array",
    items: { $ref: "#/components/schemas/VariantInput" },
  });
  assert.equal(path.patch.requestBody.content["application/json"].schema, {
    type: "array",
    items: { $ref: "#/components/schemas/JsonPatchOperation" },
  });
  assert.is(path.put.requestBody.required, true);
});

test("error responses: each status with the one Error schema and examples named for that status", () => {
  for (const { name, meta, op } of operations) {
    for (const [code, response] of Object.entries<any>(op.responses)) {
      // 304 (the client API's unchanged poll) has no body at all.
      if (code.startsWith("2") || code === "304" || code === "302") continue;
      // A step of a browser's sign-in answers its refusals as a page for a person (docs/oidc.md#refusals).
      if (meta.raw?.redirect) {
        assert.equal(Object.keys(response.content), ["text/html"], `${name} ${code}`);
        continue;
      }
      const media = response.content[meta.raw?.mediaType ?? "application/json"];
      // A protocol of its own answers its own error body (OFREP's errorCode, docs/ofrep.md#ofrep; SCIM's, docs/scim.md#errors).
      if (meta.raw?.failureBody) {
        const own = meta.raw.mediaType ? ["schemas", "status", "detail"] : ["errorCode"];
        for (const field of own) assert.ok(media.schema.required.includes(field), `${name} ${code} documents its protocol's error body`);
        continue;
      }
      assert.equal(media.schema, { $ref: "#/components/schemas/Error" }, `${name} ${code}`);
      const names = Object.keys(media.examples);
      assert.ok(names.length > 0, `${name} ${code} has examples`);
      for (const errorName of names) {
        assert.is(STATUS_BY_NAME[errorName as keyof typeof STATUS_BY_NAME], Number(code), `${name}: ${errorName} is a ${code}`);
        assert.is(media.examples[errorName].value.name, errorName);
      }
      if (code === "429" || code === "503") assert.ok(response.headers["Retry-After"], `${name} ${code} documents Retry-After`);
    }
  }
  assert.equal(
    Object.keys(doc.components.schemas).filter((s) => s.startsWith("error.")),
    [],
  );
});

test("the statuses of the four operations: what the bridge answers for each, no more", () => {
  const codes = (method: string, path: string) => Object.keys(doc.paths[path][method].responses);
  assert.equal(codes(...FOUR[0]), ["201", "400", "401", "403", "413", "415", "500", "503"]);
  assert.equal(codes(...FOUR[1]), ["200", "400", "401", "413", "415", "422", "429", "500", "503"]);
  assert.equal(codes(...FOUR[2]), ["200", "400", "401", "403", "404", "500", "503"]);
  assert.equal(codes(...FOUR[3]), ["200", "400", "401", "403", "404", "500", "503"]);
  assert.equal(Object.keys(doc.paths[FOUR[1][1]].post.responses["401"].content["application/json"].examples), ["PasswordMismatch"]);
  assert.equal(Object.keys(doc.paths["/api/admin/projects"].post.responses["409"].content["application/json"].examples), [
    "NameExistsError",
  ]);
  // No parameter and no body: nothing to be invalid and nothing to be missing.
  assert.equal(codes("get", "/api/admin/banners"), ["200", "401", "403", "500", "503"]);
});

test("the security schemes, both required on every admin operation; login needs none; OFREP takes a token either way", () => {
  assert.equal(doc.components.securitySchemes, {
    apiToken: { type: "apiKey", in: "header", name: "Authorization", description: doc.components.securitySchemes.apiToken.description },
    apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: doc.components.securitySchemes.apiKey.description },
    sessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: "vexil-session",
      description: doc.components.securitySchemes.sessionCookie.description,
    },
  });
  for (const { name, meta, op } of operations) {
    if (meta.access === "public") continue;
    // The client and frontend APIs take SDK tokens only.
    const tokensOnly = meta.access === "client" || meta.access === "frontend";
    // OFREP's providers send their token in Authorization or X-API-Key.
    // SCIM takes a SCIM token (docs/scim.md#the-scim-token), never a session.
    const expected =
      meta.access === "sdk"
        ? [{ apiToken: [] }, { apiKey: [] }]
        : tokensOnly || meta.access === "scim"
          ? [{ apiToken: [] }]
          : [{ apiToken: [] }, { sessionCookie: [] }];
    assert.equal(op.security, expected, name);
  }
  assert.equal(doc.paths["/auth/simple/login"].post.security, []);
});

test("the four operations carry examples, and every example is valid by the procedure's own schemas", () => {
  for (const [method, path] of FOUR) {
    const op = doc.paths[path][method];
    const success = Object.entries<any>(op.responses).find(([code]) => code.startsWith("2"))![1];
    assert.ok(success.content["application/json"].example !== undefined, `${method} ${path} response example`);
    if (op.requestBody) assert.ok(op.requestBody.content["application/json"].example !== undefined, `${method} ${path} body example`);
  }
  for (const [name, example] of Object.entries(OPERATION_EXAMPLES)) {
    const found = operations.find((o) => o.name === name);
    assert.ok(found, `${name} is a documented procedure`);
    const { meta, procedure } = found!;
    const params = Object.fromEntries(found!.params.map((p) => [p, p === "id" ? "1" : "default"]));
    if (example.body !== undefined) {
      const input = meta.bodyField ? { ...params, [meta.bodyField]: example.body } : { ...(example.body as object), ...params };
      const parsed = procedure._def.inputs[0]!.safeParse(input);
      assert.ok(parsed.success, `${name} body: ${JSON.stringify(parsed.error?.issues)}`);
    }
    if (example.response !== undefined) {
      const parsed = procedure._def.output.safeParse(example.response);
      assert.ok(parsed.success, `${name} response: ${JSON.stringify(parsed.error?.issues)}`);
    }
  }
});

test.run();
