import { z } from "zod";

/** At most this many names in one bulk call (docs/limits.md#field-lengths). */
const MAX_FEATURES = 10_000;

/** The `features` of Unleash's batchFeaturesSchema: names of flags of the path's project; names not stored are ignored. */
export const featureNamesSchema = z.array(z.string().min(1).max(100)).max(MAX_FEATURES);
