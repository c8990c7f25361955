import { changeRequestInbox } from "@vexil/services";
import { z } from "zod";
import { type ChangeRequestWire, changeRequestSchema } from "../schemas/change-request.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const inboxSchema = z
  .object({
    review: z.int().meta({ description: "Requests In review the caller may approve or reject" }),
    apply: z.int().meta({ description: "Approved and Scheduled requests the caller may apply or schedule" }),
    changeRequests: z.array(changeRequestSchema).meta({ description: "The oldest 100 of them, each with the caller's `actions`" }),
  })
  .meta({ id: "ChangeRequestInbox" });

// The reviewer's inbox (docs/change-requests.md#the-reviewers-inbox): what awaits the caller, across projects.
export const changeRequestInboxRouter = {
  list: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/change-requests/inbox",
        tags: ["Change requests"],
        summary: "The change requests you can act on now, in every project",
        description:
          "In review requests you may approve (not yours unless you are an Admin, not approved by you yet), and Approved or Scheduled ones you may apply, in environments with change requests on, by id; with their counts.",
      },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(inboxSchema)
    .query(async ({ ctx }) => {
      const inbox = await changeRequestInbox(ctx.db, ctx.principal);
      return { ...inbox, changeRequests: toJson(inbox.changeRequests) as ChangeRequestWire[] };
    }),
};
