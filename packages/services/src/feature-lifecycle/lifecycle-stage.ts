import { z } from "zod";

/** Unleash's lifecycle stages, in the order a flag passes through them. */
export const LIFECYCLE_STAGES = ["initial", "pre-live", "live", "completed", "archived"] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** One stage a flag entered: `status` only for `completed` (`kept` or `discarded`). */
export interface LifecycleStageEntered {
  stage: LifecycleStage;
  status?: string;
  enteredStageAt: Date;
}

/** POST .../lifecycle/complete, as Unleash's featureLifecycleCompletedSchema. */
export const completedInputSchema = z.strictObject({
  status: z.enum(["kept", "discarded"]),
  statusValue: z.string().max(255).optional(),
});

/** Stages in the order they were entered; stages entered at the same instant in lifecycle order. */
export function byEntry(a: LifecycleStageEntered, b: LifecycleStageEntered): number {
  return a.enteredStageAt.getTime() - b.enteredStageAt.getTime() || LIFECYCLE_STAGES.indexOf(a.stage) - LIFECYCLE_STAGES.indexOf(b.stage);
}
