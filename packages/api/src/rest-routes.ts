import type { AnyRouter } from "@trpc/server";
import type { OpenApiMethod } from "trpc-to-openapi";
import type { Meta } from "./trpc.ts";

/** Methods whose requests carry a JSON body (the REST bridge reads one, the client sends one). */
const METHODS_WITH_BODY: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);

/** One procedure as REST serves it, read from its `meta.openapi`: the one description of a route. */
export interface RestRoute {
  /** The procedure's path in the router, e.g. `features.replaceVariants`. */
  procedurePath: string;
  method: OpenApiMethod;
  /** The documented path, e.g. `/api/admin/projects/{projectId}/features`. */
  path: string;
  /** The `{name}` parameters of `path`, in order. */
  params: string[];
  hasBody: boolean;
  meta: Meta;
}

/** Every procedure of the router that REST serves, in the router's order. */
export function restRoutes(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta;
    const openapi = meta?.openapi;
    if (!meta || !openapi || openapi.enabled === false) continue;
    routes.push({
      procedurePath,
      method: openapi.method,
      path: openapi.path,
      params: [...openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
      hasBody: METHODS_WITH_BODY.has(openapi.method),
      meta,
    });
  }
  return routes;
}
