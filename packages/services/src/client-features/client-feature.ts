import type { FeatureDependency } from "../dependencies/feature-dependency.ts";
import type { Variant } from "../features/variant.ts";
import type { Constraint } from "../strategies/constraint.ts";
import type { StrategyVariant } from "../strategies/feature-strategy.ts";

/** A strategy as SDKs receive it; `segments` only when the SDK reads segments at the top. */
export interface ClientStrategy {
  id: string;
  name: string;
  title?: string;
  sortOrder: number;
  constraints: Constraint[];
  parameters: Record<string, string>;
  variants: StrategyVariant[];
  segments?: number[];
}

/** One element of `GET /api/client/features` (docs/sdk-protocols.md#client-features), in the order SDKs are sent its keys. */
export interface ClientFeature {
  name: string;
  type: string;
  description: string | null;
  project: string;
  enabled: boolean;
  stale: boolean;
  impressionData: boolean;
  strategies: ClientStrategy[];
  variants: Variant[];
  dependencies?: FeatureDependency[];
}

export interface ClientSegment {
  id: number;
  name: string;
  constraints: Constraint[];
}

/** What one environment serves to one set of projects, read in one consistent snapshot. */
export interface ClientFeatureSet {
  environment: string;
  features: ClientFeature[];
  /** Every segment a served strategy uses, by id. */
  segments: ClientSegment[];
  /** The last event id when it was read, as Unleash's `meta.revisionId`. */
  revisionId: number;
}
