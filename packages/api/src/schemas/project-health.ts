import { z } from "zod";
import { featureListItemSchema } from "./feature.ts";

/** Unleash's `healthReportSchema`, with what Vexil can say truthfully (docs/flag-lifecycle.md#project-health). */
export const projectHealthReportSchema = z
  .object({
    version: z.literal(1),
    name: z.string(),
    description: z.string().nullable(),
    defaultStickiness: z.literal("default"),
    mode: z.literal("open").meta({ description: "Vexil has no project collaboration modes: every project is open" }),
    featureLimit: z.null(),
    members: z.literal(0).meta({ description: "Vexil has root roles only, no project members" }),
    favorite: z.literal(false),
    health: z.int().min(0).max(100).meta({ description: "100 less the percentages of stale and of potentially stale flags" }),
    technicalDebt: z.int().min(0).max(100).meta({ description: "100 - health" }),
    createdAt: z.iso.datetime(),
    environments: z.array(z.object({ environment: z.string() })),
    features: z.array(featureListItemSchema).meta({ description: "The project's flags that are not archived, by name" }),
    potentiallyStaleCount: z.int().meta({ description: "Flags not stale and older than their type's lifetime" }),
    activeCount: z.int().meta({ description: "Flags not stale" }),
    staleCount: z.int(),
  })
  .meta({ id: "ProjectHealthReport" });
