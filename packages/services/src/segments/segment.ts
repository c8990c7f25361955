import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { z } from "zod";
import { type Constraint, constraintsFromJson, constraintsInputSchema } from "../strategies/constraint.ts";

/** Constraints shared by strategies: each one must hold wherever the segment is used. */
export interface Segment {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
  createdAt: Date;
}

export const segmentInputSchema = z.strictObject({
  name: z.string().min(1).max(100),
  description: z.string().max(1000).nullish(),
  project: z.string().min(1).max(100).nullish(),
  constraints: constraintsInputSchema.default([]),
});

/** The one place where a segment row becomes a segment. */
export function segmentFromRow(row: Selectable<Database["segments"]>): Segment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    project: row.project_id,
    constraints: constraintsFromJson(row.constraints),
    createdAt: row.created_at,
  };
}
