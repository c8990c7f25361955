import { useQuery } from "@tanstack/react-query";
import { trpc } from "../trpc.ts";

export interface FeatureTypeView {
  id: string;
  name: string;
  lifetimeDays: number | null;
}

/** The feature types and their expected lifetimes, for filters and the feature page. */
export function useFeatureTypes(): FeatureTypeView[] {
  const types = useQuery(trpc.featureTypes.list.queryOptions());
  return types.data?.types ?? [];
}

/** "40 days", or "permanent" for a type without a lifetime. */
export const lifetimeText = (days: number | null | undefined) => (days == null ? "permanent" : `${days} day${days === 1 ? "" : "s"}`);
