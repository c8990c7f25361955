import { z } from "zod";
import { handleOfrepEventStream, ofrepStreamScope } from "../ofrep/ofrep-event-stream-handler.ts";
import { ofrepFlag, ofrepFlags } from "../ofrep/ofrep-evaluate.ts";
import { ofrepFailureBody, ofrepFailureSchema } from "../ofrep/ofrep-failure.ts";
import { handleOfrepFlag } from "../ofrep/ofrep-flag-handler.ts";
import { handleOfrepFlags } from "../ofrep/ofrep-flags-handler.ts";
import { ofrepBulkEvaluationSchema, ofrepEvaluationSchema, ofrepFlagRequestSchema, ofrepRequestSchema } from "../schemas/ofrep.ts";
import { protectedProcedure, publicProcedure } from "../trpc.ts";

const tags = ["OpenFeature (OFREP)"];
const failures = { failureBody: ofrepFailureBody, failureSchema: ofrepFailureSchema };
const tokens =
  "Takes a client token (server providers) or a frontend token (browser providers; without a remoteAddress the request's address is used), or an admin token, in Authorization (`Bearer ` optional) or X-API-Key. `targetingKey` is the userId; sessionId, remoteAddress, appName, environment and currentTime are themselves; every other key is a property.";

// OpenFeature's remote evaluation protocol (OFREP 0.3): over REST the raw handlers read the body as OFREP sends it,
// answer ETags, 304s and events, and every failure in OFREP's body; over tRPC the procedures answer the same evaluations.
export const ofrepRouter = {
  evaluateFlag: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/ofrep/v1/evaluate/flags/{key}",
        tags,
        summary: "One flag evaluated for an OpenFeature context (OFREP, server providers)",
        description: `A flag without variants answers a boolean; one with variants its variant's payload (or name); a flag switched off answers reason DISABLED, with value false when it has no variants and no value when it has. ${tokens}`,
      },
      access: "sdk",
      raw: { serve: handleOfrepFlag, ...failures },
    })
    .input(ofrepFlagRequestSchema)
    .output(ofrepEvaluationSchema)
    .mutation(({ ctx, input }) => ofrepFlag(ctx, input.key, { context: input.context })),

  evaluateFlags: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/ofrep/v1/evaluate/flags",
        tags,
        summary: "Every flag of the token's scope evaluated for an OpenFeature context (OFREP, browser providers)",
        description: `Every 200 carries an ETag made from what the answer depends on (the flags, the token's scope, the context's values that evaluation reads); a matching If-None-Match is a 304, answered without evaluating. \`eventStreams\` names an SSE URL that sends refetchEvaluation when the token's flags change. ${tokens}`,
      },
      access: "sdk",
      raw: { serve: handleOfrepFlags, notModified: true, ...failures },
    })
    .input(ofrepRequestSchema)
    .output(ofrepBulkEvaluationSchema)
    .mutation(async ({ ctx, input }) => ({ flags: await ofrepFlags(ctx, { context: input.context }) })),

  // Over REST a stream; over tRPC the ticket's check alone.
  eventStream: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/ofrep/v1/event-stream/{ticket}",
        tags,
        summary: "Server-sent events telling a token's providers to fetch the bulk evaluation again (OFREP 0.3 eventStreams)",
        description:
          "The URL comes from the bulk evaluation's `eventStreams`: the ticket stands for the token (a browser's EventSource sends no header), and opens nothing but this stream. A ticket of a deleted or expired token, or one this server did not make, is a 404.",
      },
      access: "public",
      raw: {
        serve: handleOfrepEventStream,
        credentialInPath: true,
        eventStream:
          'Server-sent events: `id: <revision>`, `data: {"type": "refetchEvaluation"}` whenever the token\'s flags change; `: heartbeat` comments. Past the instance\'s stream limit, a 503.',
        ...failures,
      },
    })
    .input(z.strictObject({ ticket: z.string() }))
    .output(z.object({}))
    .query(async ({ ctx, input }) => {
      await ofrepStreamScope(ctx, input.ticket);
      return {};
    }),
};
