import {
  addChange,
  CHANGE_ACTIONS,
  CHANGE_REQUEST_STATES,
  changeRequestConfig,
  getChangeRequest,
  moveChangeRequest,
  pendingChangeRequestsFor,
  setChangeRequestConfig,
} from "@vexil/services";
import { z } from "zod";
import { type ChangeRequestWire, changeRequestConfigSchema, changeRequestSchema } from "../schemas/change-request.ts";
import { toJson } from "../schemas/to-json.ts";
import { recordIdSchema } from "../schemas/record-id.ts";
import { protectedProcedure } from "../trpc.ts";

const projectPath = "/api/admin/projects/{projectId}";
const tags = ["Change requests"];
const name = z.string().min(1).max(100);
const idParam = recordIdSchema("Change request id");

export const changeRequestsRouter = {
  config: protectedProcedure
    .meta({
      openapi: { method: "GET", path: `${projectPath}/change-requests/config`, tags, summary: "Change-request settings per environment" },
      access: "authenticated",
    })
    .input(z.object({ projectId: name }))
    .output(z.array(changeRequestConfigSchema))
    .query(({ ctx, input }) => changeRequestConfig(ctx.db, input.projectId)),

  setConfig: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: `${projectPath}/environments/{environment}/change-requests/config`,
        tags,
        summary: "Turn change requests on or off for an environment of a project",
        description: "By an Admin or an Owner of the project, as in Unleash.",
      },
      // A project's settings are its Owners' as in Unleash (docs/project-roles.md#what-an-owner-manages).
      access: "UPDATE_PROJECT",
    })
    .input(
      z.strictObject({
        projectId: name,
        environment: name,
        changeRequestsEnabled: z.boolean(),
        requiredApprovals: z.number().int().min(1).max(10),
      }),
    )
    .output(changeRequestConfigSchema)
    .mutation(({ ctx, input }) =>
      setChangeRequestConfig(ctx.db, ctx.principal, input.projectId, input.environment, {
        changeRequestsEnabled: input.changeRequestsEnabled,
        requiredApprovals: input.requiredApprovals,
      }),
    ),

  addChange: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${projectPath}/environments/{environment}/change-requests`,
        tags,
        summary: "Add a change to your open change request (a new Draft when there is none)",
      },
      access: "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
    })
    .input(
      z.strictObject({
        projectId: name,
        environment: name,
        feature: name,
        action: z.enum(CHANGE_ACTIONS),
        // An object, but reorderStrategy's is Unleash's set-sort-order array (docs/flag-model.md#daily-edits).
        payload: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]),
      }),
    )
    .output(changeRequestSchema)
    .mutation(async ({ ctx, input }) => toJson(await addChange(ctx.db, ctx.principal, input)) as ChangeRequestWire),

  // Declared before `get` only for readability; the bridge matches literal paths first anyway.
  pending: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: `${projectPath}/change-requests/pending`,
        tags,
        summary: "Your pending change requests in a project",
        description:
          "Draft, In review, Approved and Scheduled requests created by the caller, in environments with change requests enabled, by id.",
      },
      access: "authenticated",
    })
    .input(z.object({ projectId: name }))
    .output(z.array(changeRequestSchema))
    .query(async ({ ctx, input }) => toJson(await pendingChangeRequestsFor(ctx.db, ctx.principal, input.projectId)) as ChangeRequestWire[]),

  get: protectedProcedure
    .meta({
      openapi: { method: "GET", path: `${projectPath}/change-requests/{id}`, tags, summary: "One change request" },
      access: "authenticated",
    })
    .input(z.object({ projectId: name, id: idParam }))
    .output(changeRequestSchema)
    .query(async ({ ctx, input }) => toJson(await getChangeRequest(ctx.db, ctx.principal, input.projectId, input.id)) as ChangeRequestWire),

  setState: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: `${projectPath}/change-requests/{id}/state`,
        tags,
        summary: "Move a change request to another state",
        description: "With `version`, 409 when the request has changed since it was read (a change was added).",
      },
      access: "authenticated",
      failures: ["ConflictError"],
    })
    .input(
      z.strictObject({
        projectId: name,
        id: idParam,
        state: z.enum(CHANGE_REQUEST_STATES),
        comment: z.string().max(10_000).optional(),
        scheduledAt: z.iso.datetime({ offset: true }).optional(),
        version: z.number().int().min(0).optional().meta({ description: "The `version` of the request as read." }),
      }),
    )
    .output(changeRequestSchema)
    .mutation(async ({ ctx, input }) => {
      const view = await moveChangeRequest(ctx.db, ctx.principal, input.projectId, input.id, {
        state: input.state,
        comment: input.comment,
        scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : undefined,
        version: input.version,
      });
      return toJson(view) as ChangeRequestWire;
    }),
};
