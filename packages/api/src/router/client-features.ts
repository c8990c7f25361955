import { clientFeatureFrom, NotFoundError, type Principal, renderClientFeatures } from "@vexil/services";
import { z } from "zod";
import { narrowHydration } from "../client-streaming/client-query.ts";
import { clientHub, servedFeatures } from "../client-scope.ts";
import type { Context } from "../context.ts";
import { clientDeltaSchema } from "../schemas/client-delta.ts";
import { clientFeatureSchema, clientFeaturesSchema } from "../schemas/client-feature.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Client API"];
const narrowing = z
  .strictObject({ project: z.array(z.string().max(100)).optional(), namePrefix: z.string().max(100).optional() })
  .optional();

/** The delta and streaming routes over tRPC (or to a JSON-only caller): the scope's hydration, narrowed. */
async function firstHydration(ctx: Context & { principal: Principal }, input: z.infer<typeof narrowing>) {
  const hub = clientHub(ctx.deps, ctx.principal);
  await hub.ready();
  return { events: [narrowHydration(hub.hydration(), { projects: input?.project ?? [], namePrefix: input?.namePrefix })] };
}

export const clientFeaturesRouter = {
  // Over REST this path is served by handleClientFeatures (ETag, 304); this procedure documents it and serves /trpc.
  list: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/client/features",
        tags,
        summary: "The features an SDK evaluates, for the token's environment and projects",
        description:
          "Every 200 carries an ETag; a request whose If-None-Match matches it is a 304 with no body. SDKs that send Unleash-Client-Spec >= 4.2.0 get segments at the top and ids in each strategy; older ones get segment constraints inlined.",
      },
      access: "client",
    })
    .input(z.strictObject({ project: z.array(z.string().max(100)).optional(), namePrefix: z.string().max(100).optional() }).optional())
    .output(clientFeaturesSchema)
    .query(async ({ ctx, input }) => {
      const set = await servedFeatures(ctx.deps, ctx.principal);
      const rendered = renderClientFeatures(set, {
        projects: input?.project,
        namePrefix: input?.namePrefix,
        inlineSegmentConstraints: false,
      });
      return JSON.parse(rendered.body.toString("utf8"));
    }),

  get: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/client/features/{featureName}",
        tags,
        summary: "One feature an SDK evaluates; 404 outside the token's scope",
      },
      access: "client",
    })
    .input(z.strictObject({ featureName: z.string() }))
    .output(clientFeatureSchema)
    .query(async ({ ctx, input }) => {
      const feature = clientFeatureFrom(await servedFeatures(ctx.deps, ctx.principal), input.featureName);
      if (!feature) throw new NotFoundError(`There is no feature "${input.featureName}" for this token.`);
      return feature;
    }),

  // Over REST this path is served by handleClientDelta (ETag, 304, events since a revision); over tRPC it is the hydration.
  delta: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/client/delta",
        tags,
        summary: "What an SDK evaluates, as a hydration and then the events since its revision",
        description:
          'The first call (no If-None-Match) is one `hydration` event with every feature and segment. Its ETag is the revision, `"<revisionId>"`; sent back as If-None-Match it gets a 304 when nothing changed, the `feature-updated`, `feature-removed`, `segment-updated` and `segment-removed` events since that revision while the server keeps them, or a hydration again. Client specification 19 and 20; the Node SDK\'s `experimentalMode: {type: "polling", format: "delta"}`.',
      },
      access: "client",
    })
    .input(narrowing)
    .output(clientDeltaSchema)
    .query(({ ctx, input }) => firstHydration(ctx, input)),

  // Over REST this path is a stream of server-sent events (handleClientStreaming); over tRPC it is the stream's first event.
  streaming: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/client/streaming",
        tags,
        summary: "What an SDK evaluates, as server-sent events: a hydration, then every change",
        description:
          'A `text/event-stream`. First `unleash-connected`, whose data is `{events: [hydration]}`; then `unleash-updated` with `{events: [...]}` for each change, on every instance wherever the change was made. Event ids are revisions: reconnecting with `Last-Event-ID` gets only what changed since, while the server keeps it. A comment line comes every STREAMING_HEARTBEAT_MS. Past STREAMING_MAX_CONNECTIONS streams on an instance, the answer is a `fetch-mode` event with data `polling`, and the Node SDK polls instead. The Node SDK\'s `experimentalMode: {type: "streaming"}`.',
      },
      access: "client",
    })
    .input(narrowing)
    .output(clientDeltaSchema)
    .query(({ ctx, input }) => firstHydration(ctx, input)),
};
