import { frontendContextSchema } from "@vexil/services";
import { z } from "zod";

export const frontendContextInputSchema = frontendContextSchema.meta({ id: "FrontendContext" });

/**
 * The query of `GET /api/frontend` as documented: the context fields. Properties come as
 * `properties[name]=value`, which an OpenAPI query parameter cannot describe; the route's raw handler reads them
 * (frontend-query.ts), and typed clients send them with POST.
 */
export const frontendQuerySchema = frontendContextSchema.omit({ properties: true });

/** The body of `POST /api/frontend`, as `unleash-proxy-client` sends it with `usePOSTrequests`. */
export const frontendRequestSchema = z.strictObject({ context: frontendContextInputSchema.optional() });

const frontendToggleSchema = z
  .object({
    name: z.string(),
    enabled: z.literal(true),
    variant: z.object({
      name: z.string(),
      enabled: z.boolean(),
      payload: z.object({ type: z.string(), value: z.string() }).optional(),
      feature_enabled: z.boolean(),
    }),
    impressionData: z.boolean(),
  })
  .meta({ id: "FrontendToggle" });

export const frontendTogglesSchema = z.object({ toggles: z.array(frontendToggleSchema) }).meta({ id: "FrontendToggles" });
