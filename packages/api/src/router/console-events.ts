import { z } from "zod";
import { CONSOLE_EVENTS_OPENED, handleConsoleEvents } from "../console-events/console-events-handler.ts";
import { protectedProcedure } from "../trpc.ts";

const changeSchema = '`{"changes": [{"type", "project", "environment", "feature", "changeRequestId"}]}`';

// Over REST a stream; over tRPC (and to a JSON-only caller) the reconnect delay alone.
export const consoleEventsRouter = {
  stream: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/console-events",
        tags: ["Events"],
        summary: "Server-sent events telling an open console what changed, on any instance",
        description:
          "Vexil's own (Unleash has no such route): the console opens it with its session cookie and reads a page's data again when a change touches it. Each event names what one write touched (its event types, projects, environments, features and change requests), never the data; `everything` means read everything again.",
      },
      access: "authenticated",
      raw: {
        serve: handleConsoleEvents,
        eventStream: `Server-sent events: \`retry: 1000\`, then one \`data:\` per committed write, ${changeSchema} or \`{"everything": true}\`; \`: heartbeat\` comments. Past the instance's stream limit, a 503.`,
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ retryMs: z.number().int() }))
    .query(() => CONSOLE_EVENTS_OPENED),
};
