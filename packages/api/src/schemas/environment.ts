import { z } from "zod";

export const environmentSchema = z
  .object({
    name: z.string(),
    type: z.string(),
    sortOrder: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Environment" });
