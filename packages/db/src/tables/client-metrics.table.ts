import type { ColumnType } from "kysely";

/** An SDK instance as it last registered. */
export interface ClientInstanceTable {
  app_name: string;
  instance_id: string;
  sdk_version: string | null;
  environment: string;
  strategies: ColumnType<unknown, string | undefined, string>;
  started: Date;
  interval: number;
  last_seen: ColumnType<Date, Date | undefined, Date>;
}

/** Evaluation counts summed per feature, environment, application and hour. */
export interface ClientMetricTable {
  feature_name: string;
  environment: string;
  app_name: string;
  hour: Date;
  yes: ColumnType<number, number | undefined, number>;
  no: ColumnType<number, number | undefined, number>;
}

/** How often each variant was given, summed as the counts are. */
export interface ClientMetricVariantTable {
  feature_name: string;
  environment: string;
  app_name: string;
  hour: Date;
  variant: string;
  count: ColumnType<number, number | undefined, number>;
}

/** Evaluation counts of the hours past the hourly window, summed per feature, environment, application and day (UTC). */
export interface ClientMetricDailyTable {
  feature_name: string;
  environment: string;
  app_name: string;
  /** The day's first instant, UTC. */
  day: Date;
  yes: ColumnType<number, number | undefined, number>;
  no: ColumnType<number, number | undefined, number>;
}

/** Variant counts of those days, summed as the daily counts are. */
export interface ClientMetricVariantDailyTable {
  feature_name: string;
  environment: string;
  app_name: string;
  day: Date;
  variant: string;
  count: ColumnType<number, number | undefined, number>;
}

/** A flag an SDK asked for that did not exist, per application and environment, as last reported. */
export interface UnknownFlagTable {
  name: string;
  app_name: string;
  environment: string;
  seen_at: Date;
}
