import type { Reply } from "./test-server.ts";

/** A state of @unleash/client-specification, as its JSON files give it. */
export interface SpecState {
  features: SpecFeature[];
  segments?: { id: number; constraints: unknown[] }[];
}
interface SpecVariant {
  name: string;
  weight: number;
  stickiness?: string;
  payload?: unknown;
  overrides?: unknown[];
}
interface SpecFeature {
  name: string;
  description?: string;
  enabled: boolean;
  strategies?: {
    name: string;
    parameters?: Record<string, string>;
    constraints?: unknown[];
    variants?: SpecVariant[];
    segments?: number[];
  }[];
  variants?: SpecVariant[];
  dependencies?: { feature: string; enabled?: boolean; variants?: string[] }[];
}

/** A write the admin API refused, for the feature it was for. */
export interface Refusal {
  feature: string;
  request: string;
  status: number;
  name: string;
  message: string;
  /** The messages of the answer's `details`, where it has some (Unleash's schema errors say what is wrong only there). */
  details?: string[];
}

type Call = (method: string, path: string, body?: unknown) => Promise<Reply>;

/**
 * Variants as a user writes them. Weights that add up to 1000 are kept exactly (the last one
 * "variable", so the server's normalisation gives it the rest), and a lone variant is chosen
 * whatever its weight. Any other weights are sent as written, as "fix" weights: SDKs pick by the
 * hash modulo the total, so no per-mille set means the same, and the admin API refuses them.
 * Every variant carries its weight and stickiness ("default" where the file has none), which
 * Unleash requires even of a "variable" variant, whose weight the server computes.
 */
function variantsBody(variants: SpecVariant[]): unknown[] {
  const exact = variants.reduce((sum, v) => sum + v.weight, 0) === 1000;
  return variants.map((v, i) => {
    const fixed = variants.length > 1 && (!exact || i < variants.length - 1);
    return {
      name: v.name,
      weight: v.weight,
      weightType: fixed ? "fix" : "variable",
      stickiness: v.stickiness ?? "default",
      ...(v.payload ? { payload: v.payload } : {}),
      ...(v.overrides ? { overrides: v.overrides } : {}),
    };
  });
}

/**
 * Creates a specification state through the admin API, as a user would: segments, then features
 * with their switch, strategies and variants, then dependencies. Every refusal is recorded and
 * the rest goes on; a feature with a refused write is not served as the specification means it.
 */
export async function loadSpecState(
  call: Call,
  project: string,
  environment: string,
  state: SpecState,
  /** The file's segment ids -> the stored ones; pass one map to load a state in several steps. */
  segmentIds = new Map<number, number>(),
): Promise<Refusal[]> {
  const refusals: Refusal[] = [];
  const attempt = async (feature: string, method: string, path: string, body?: unknown): Promise<Reply | undefined> => {
    const res = await call(method, path, body);
    if (res.status < 300) return res;
    refusals.push({
      feature,
      request: `${method} ${path.replace(/\/api\/admin\/projects\/[^/]+\/features\//, ".../")}`,
      status: res.status,
      name: res.json?.name,
      message: res.json?.message,
      ...(Array.isArray(res.json?.details) ? { details: res.json.details.map((d: { message?: string }) => String(d.message)) } : {}),
    });
    return undefined;
  };
  for (const segment of state.segments ?? []) {
    const res = await attempt(`segment ${segment.id}`, "POST", "/api/admin/segments", {
      name: `${project}-segment-${segment.id}`,
      constraints: segment.constraints,
    });
    if (res) segmentIds.set(segment.id, res.json.id);
  }
  const featurePath = (name: string) => `/api/admin/projects/${project}/features/${encodeURIComponent(name)}`;
  const envPath = (name: string) => `${featurePath(name)}/environments/${environment}`;
  const created = new Set<string>();
  for (const feature of state.features) {
    const res = await attempt(feature.name, "POST", `/api/admin/projects/${project}/features`, {
      name: feature.name,
      description: feature.description ?? null,
    });
    if (!res) continue;
    created.add(feature.name);
    if (feature.enabled) await attempt(feature.name, "POST", `${envPath(feature.name)}/on`);
    for (const strategy of feature.strategies ?? []) {
      const segments = (strategy.segments ?? []).map((id) => segmentIds.get(id) ?? id);
      await attempt(feature.name, "POST", `${envPath(feature.name)}/strategies`, {
        name: strategy.name,
        parameters: strategy.parameters ?? {},
        constraints: strategy.constraints ?? [],
        variants: variantsBody(strategy.variants ?? []),
        segments,
      });
    }
    if (feature.variants?.length) await attempt(feature.name, "PUT", `${envPath(feature.name)}/variants`, variantsBody(feature.variants));
  }
  // Children of parents without parents first, so that a chain is refused at its second link.
  const hasParents = (name: string) => state.features.some((f) => f.name === name && f.dependencies?.length);
  const depth = (f: SpecFeature) => (f.dependencies?.some((d) => hasParents(d.feature)) ? 1 : 0);
  for (const feature of [...state.features].sort((a, b) => depth(a) - depth(b))) {
    if (!created.has(feature.name)) continue;
    for (const dependency of feature.dependencies ?? []) {
      await attempt(feature.name, "POST", `${featurePath(feature.name)}/dependencies`, {
        feature: dependency.feature,
        ...(dependency.enabled !== undefined ? { enabled: dependency.enabled } : {}),
        ...(dependency.variants ? { variants: dependency.variants } : {}),
      });
    }
  }
  return refusals;
}
