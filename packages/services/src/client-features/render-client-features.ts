import { createHash } from "node:crypto";
import type { ClientFeature, ClientFeatureSet, ClientStrategy } from "./client-feature.ts";

export interface ClientFeaturesQuery {
  /** The `project` query parameters; absent serves every project of the token. */
  projects?: string[] | undefined;
  namePrefix?: string | undefined;
  /** Older SDKs (Unleash-Client-Spec below 4.2.0) get each segment's constraints in the strategy. */
  inlineSegmentConstraints: boolean;
}

/** A response body as bytes, with its ETag: computed once per snapshot and query. */
export interface RenderedClientFeatures {
  body: Buffer;
  etag: string;
}

/** Strategies as an SDK of that spec version reads them. */
function strategiesFor(set: ClientFeatureSet, strategies: ClientStrategy[], inline: boolean): ClientStrategy[] {
  if (!inline) return strategies;
  return strategies.map(({ segments = [], ...strategy }) => {
    const extra = segments.flatMap((id) => set.segments.find((s) => s.id === id)?.constraints ?? []);
    return extra.length ? { ...strategy, constraints: [...strategy.constraints, ...extra] } : strategy;
  });
}

/** One feature as `GET /api/client/features/:name` serves it: self-contained, segments inlined. */
export function clientFeatureFrom(set: ClientFeatureSet, name: string): ClientFeature | undefined {
  const feature = set.features.find((f) => f.name === name);
  return feature && { ...feature, strategies: strategiesFor(set, feature.strategies, true) };
}

/**
 * The body of `GET /api/client/features`. The ETag is a digest of everything served but `meta`,
 * so every instance gives the same content the same ETag, and any change to it a new one.
 */
export function renderClientFeatures(set: ClientFeatureSet, query: ClientFeaturesQuery): RenderedClientFeatures {
  const wanted = query.projects?.length ? new Set(query.projects) : null;
  const prefix = query.namePrefix ?? "";
  const features = set.features
    .filter((f) => (!wanted || wanted.has(f.project)) && f.name.startsWith(prefix))
    .map((f) => ({ ...f, strategies: strategiesFor(set, f.strategies, query.inlineSegmentConstraints) }));
  const used = new Set(features.flatMap((f) => f.strategies.flatMap((s) => s.segments ?? [])));
  const served = {
    version: 2,
    features,
    ...(query.inlineSegmentConstraints ? {} : { segments: set.segments.filter((s) => used.has(s.id)) }),
    query: {
      ...(query.projects?.length ? { project: query.projects } : {}),
      ...(query.namePrefix !== undefined ? { namePrefix: query.namePrefix } : {}),
      environment: set.environment,
      inlineSegmentConstraints: query.inlineSegmentConstraints,
    },
  };
  const json = JSON.stringify(served);
  const etag = `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"`;
  // The meta goes last and outside the digest: revisionId counts events nobody is served.
  const body = Buffer.from(`${json.slice(0, -1)},"meta":${JSON.stringify({ revisionId: set.revisionId, etag })}}`);
  return { body, etag };
}
