import { z } from "zod";

/** The child is served only when its parent is on (or off, with enabled false), and gives one of `variants`. */
export interface FeatureDependency {
  feature: string;
  enabled: boolean;
  variants: string[];
}

export const dependencyInputSchema = z.strictObject({
  feature: z.string().min(1).max(100),
  enabled: z.boolean().default(true),
  variants: z.array(z.string().min(1).max(100)).max(100).default([]),
});
