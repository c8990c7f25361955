import { urlSafeName } from "@vexil/services";
import { z } from "zod";

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Project" });

export const createProjectShape = {
  id: urlSafeName.meta({ description: "URL-safe, 1-100 characters; used in paths" }),
  name: z
    .string()
    .refine((n) => n.trim() !== "", "must not be empty")
    .meta({ description: "Name shown to people" }),
  description: z.string().nullable().optional(),
};
