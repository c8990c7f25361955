import { clientFeatureFrom, NotFoundError, renderClientFeatures } from "@vexil/services";
import { z } from "zod";
import { handleClientFeatures } from "../client-features-handler.ts";
import { clientScope } from "../client-scope.ts";
import { handleClientDelta } from "../client-streaming/client-delta-handler.ts";
import { firstHydration, handleClientStreaming } from "../client-streaming/client-streaming-handler.ts";
import { clientDeltaSchema } from "../schemas/client-delta.ts";
import { clientFeatureSchema, clientFeaturesSchema } from "../schemas/client-feature.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Client API"];
const narrowing = z
  .strictObject({ project: z.array(z.string().max(100)).optional(), namePrefix: z.string().max(100).optional() })
  .optional();

const queryOf = (input: z.infer<typeof narrowing>) => ({ projects: input?.project ?? [], namePrefix: input?.namePrefix });

export const clientFeaturesRouter = {
  // Over REST the raw handler answers prepared bytes, gzip and 304s; over tRPC the procedure answers the same features.
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
      raw: { serve: handleClientFeatures, notModified: true },
    })
    .input(narrowing)
    .output(clientFeaturesSchema)
    .query(async ({ ctx, input }) => {
      const set = await ctx.deps.servedFeatures.features(clientScope(ctx.principal));
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
      const feature = clientFeatureFrom(await ctx.deps.servedFeatures.features(clientScope(ctx.principal)), input.featureName);
      if (!feature) throw new NotFoundError(`There is no feature "${input.featureName}" for this token.`);
      return feature;
    }),

  // Over REST the raw handler answers the events since the caller's revision, or a 304; over tRPC the procedure answers the hydration.
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
      raw: { serve: handleClientDelta, notModified: true },
    })
    .input(narrowing)
    .output(clientDeltaSchema)
    .query(({ ctx, input }) => firstHydration(ctx, queryOf(input))),

  // Over REST the raw handler answers a stream of server-sent events; over tRPC the procedure answers the stream's first event.
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
      raw: {
        serve: handleClientStreaming,
        eventStream:
          "Server-sent events: `id: <revision>`, `event: unleash-connected` or `unleash-updated`, `data: {\"events\": [...]}` (ClientDelta); `: heartbeat` comments; or, past the instance's stream limit, `event: fetch-mode` with `data: polling`. With `Accept: application/json` (and not `text/event-stream`), the first event's data as JSON.",
      },
    })
    .input(narrowing)
    .output(clientDeltaSchema)
    .query(({ ctx, input }) => firstHydration(ctx, queryOf(input))),
};
