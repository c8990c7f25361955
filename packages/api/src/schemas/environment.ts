import { urlSafeName } from "@vexil/services";
import { z } from "zod";

export const environmentSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    sortOrder: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Environment" });

export const createEnvironmentSchema = z
  .strictObject({
    name: urlSafeName.meta({ description: "URL-safe, 1-100 characters" }),
    type: z.string().min(1).max(100).meta({ description: "Kind of environment, e.g. development or production" }),
    sortOrder: z.int32().optional().meta({ description: "Position in lists, lowest first (default 0)" }),
  })
  .meta({ id: "CreateEnvironment" });
