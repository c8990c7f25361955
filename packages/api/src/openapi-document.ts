import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import type { SchemaObject } from "openapi3-ts/oas31";
import type { AnyRouter } from "@trpc/server";
import type { Meta } from "./trpc.ts";

const ERROR_REF = { $ref: "#/components/schemas/Error" };

const errorSchema: SchemaObject = {
  type: "object",
  required: ["id", "name", "message"],
  properties: {
    id: { type: "string", format: "uuid", description: "Id of this error instance; the server log carries it too." },
    name: { type: "string", description: "Name of the error kind, e.g. ValidationError." },
    message: { type: "string", description: "What went wrong, for a person." },
    details: {
      type: "array",
      description: "On 400: each offending field.",
      items: {
        type: "object",
        required: ["message", "path"],
        properties: { message: { type: "string" }, path: { type: "string" } },
      },
    },
  },
};

/**
 * The OpenAPI 3.1 document of the REST surface. trpc-to-openapi writes paths and schemas; we then
 * put in the success codes the bridge really answers with and one error schema for every failure.
 */
export function createOpenApiDocument(router: AnyRouter, info: { version: string; baseUrl?: string }): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: "Vexil admin API",
    version: info.version,
    baseUrl: info.baseUrl ?? "/",
    description: "Administration API for feature flags, wire-compatible with Unleash's admin API.",
  });
  const metaByOperation = new Map<string, Meta>();
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  for (const procedure of Object.values(procedures)) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi) metaByOperation.set(`${openapi.method.toLowerCase()} ${openapi.path}`, procedure._def.meta as Meta);
  }

  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, Error: errorSchema } };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, any>)) {
      const meta = metaByOperation.get(`${method} ${path}`);
      if (!meta || !operation?.responses) continue;
      const status = String(meta.successStatus ?? 200);
      const responses: Record<string, any> = {};
      for (const [code, response] of Object.entries(operation.responses as Record<string, any>)) {
        if (code === "200") {
          responses[status] = response;
        } else if (Number(code) >= 400 || code === "default") {
          responses[code] = { description: response.description ?? "Error", content: { "application/json": { schema: ERROR_REF } } };
        } else {
          responses[code] = response;
        }
      }
      operation.responses = responses;
    }
  }
  return doc;
}
