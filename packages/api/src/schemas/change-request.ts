import { CHANGE_REQUEST_STATES } from "@vexil/services";
import { z } from "zod";

const actorSchema = z
  .object({ id: z.number().int(), username: z.string().nullable(), imageUrl: z.string() })
  .meta({ id: "ChangeRequestActor" });
const changeSchema = z.object({
  id: z.number().int(),
  action: z.string(),
  payload: z.unknown().optional(),
  createdAt: z.iso.datetime(),
  createdBy: actorSchema,
});

const common = {
  id: z.number().int(),
  title: z.string().optional(),
  environment: z.string(),
  minApprovals: z.number().int(),
  project: z.string(),
  features: z.array(z.object({ name: z.string(), changes: z.array(changeSchema) })),
  segments: z.array(z.object({})),
  approvals: z.array(z.object({ createdBy: actorSchema, createdAt: z.iso.datetime() })).optional(),
  rejections: z.array(z.object({ createdBy: actorSchema, createdAt: z.iso.datetime(), text: z.string().optional() })).optional(),
  comments: z.array(z.object({ id: z.number().int(), text: z.string(), createdBy: actorSchema, createdAt: z.iso.datetime() })).optional(),
  createdBy: actorSchema,
  createdAt: z.iso.datetime(),
  version: z.number().int().meta({
    description:
      "The id of the request's latest change (0 with none): a reviewer sends it back with PUT .../state, which answers 409 when the request changed since.",
  }),
  actions: z.array(z.enum(CHANGE_REQUEST_STATES)).meta({
    description:
      "The states the caller may move this change request to now: PUT .../state accepts these (given what each needs, such as `scheduledAt`) and refuses the rest (an approval the caller has given already is accepted again without counting, and not listed). Empty when it is final or nothing is theirs to do.",
  }),
};

/**
 * Only a Scheduled request carries `schedule` (docs/change-requests.md#change-request-shape); a union discriminated by `state`
 * checks each response against one shape instead of trying both.
 */
export const changeRequestSchema = z
  .discriminatedUnion("state", [
    z.object({ ...common, state: z.enum(["Draft", "In review", "Approved", "Applied", "Cancelled", "Rejected"]) }),
    z.object({
      ...common,
      state: z.literal("Scheduled"),
      schedule: z.object({
        scheduledAt: z.iso.datetime(),
        status: z.enum(["pending", "failed", "suspended"]),
        reason: z.string().optional(),
      }),
    }),
  ])
  .meta({ id: "ChangeRequest" });

export const changeRequestConfigSchema = z
  .object({
    environment: z.string(),
    type: z.string(),
    changeRequestsEnabled: z.boolean(),
    requiredApprovals: z.number().int(),
  })
  .meta({ id: "ChangeRequestConfig" });

export type ChangeRequestWire = z.infer<typeof changeRequestSchema>;
