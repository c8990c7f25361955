import type { ClientFeature, ClientStrategy } from "../../src/client-features/client-feature.ts";

// Flags written out by hand, as the client API serves them: the defaults of a new flag, and what a
// test says of it.

let ids = 0;

export const clientStrategy = (name: string, over: Partial<ClientStrategy> = {}): ClientStrategy => ({
  id: `s${++ids}`,
  name,
  sortOrder: 0,
  constraints: [],
  parameters: {},
  variants: [],
  segments: [],
  ...over,
});

export const clientFeature = (name: string, strategies: ClientStrategy[], over: Partial<ClientFeature> = {}): ClientFeature => ({
  name,
  type: "release",
  description: null,
  project: "default",
  enabled: true,
  stale: false,
  impressionData: false,
  strategies,
  variants: [],
  ...over,
});
