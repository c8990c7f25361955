import { listEvents } from "@vexil/services";
import { z } from "zod";
import { eventPageSchema, eventSchema } from "../schemas/event.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const DEFAULT_PAGE = 100;

export const eventsRouter = {
  list: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/events",
        tags: ["Events"],
        summary: "The event log, newest first",
        description: "One page of events; pass the last id you saw as `before` for the next page.",
      },
      access: "ADMIN",
    })
    .input(eventPageSchema)
    .output(z.object({ version: z.literal(1), events: z.array(eventSchema) }))
    .query(async ({ ctx, input }) => ({
      version: 1 as const,
      events: toJson(await listEvents(ctx.db, { limit: input?.limit ?? DEFAULT_PAGE, before: input?.before })),
    })),
};
