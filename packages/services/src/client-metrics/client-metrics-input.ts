import { z } from "zod";

const name = z.string().min(1).max(255);
const count = z.int().min(0).max(1_000_000_000);
// SDKs send dates as ISO text; some send epoch milliseconds.
const date = z
  .union([z.iso.datetime({ offset: true }), z.int().min(0)])
  .transform((v) => new Date(v))
  .refine((d) => d.getUTCFullYear() >= 1970 && d.getUTCFullYear() <= 9999, "must be a date from 1970 to 9999");

/** POST /api/client/register: extra fields SDKs send (platformName, specVersion, ...) are ignored. */
export const clientRegistrationSchema = z.object({
  appName: name,
  instanceId: name,
  sdkVersion: z.string().max(255).nullish(),
  strategies: z.array(z.string().max(255)).max(1000).default([]),
  started: date,
  interval: z.int().min(0).max(86_400_000),
  environment: z.string().max(100).nullish(),
});

const toggleCountsSchema = z.object({
  yes: count,
  no: count,
  variants: z.record(name, count).optional(),
});

/** POST /api/client/metrics: one bucket of evaluation counts per feature. */
export const clientMetricsSchema = z.object({
  appName: name,
  instanceId: name,
  environment: z.string().max(100).nullish(),
  bucket: z.object({
    start: date,
    stop: date,
    toggles: z.record(name, toggleCountsSchema),
  }),
});
