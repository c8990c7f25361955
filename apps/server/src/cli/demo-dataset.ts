import type { ChangeAction, ChangeRequestState, VariantInput } from "@vexil/services";

/**
 * What `vexil demo` loads, as data: a project in three environments, features with variants,
 * change requests enabled in two environments, and change requests that end in every state.
 */
export const DEMO_PROJECT = { id: "demo", name: "Demo shop", description: "Loaded by `vexil demo`: try the four operations on it." };

export const DEMO_ENVIRONMENTS = [
  { name: "development", type: "development", sortOrder: 100, changeRequests: null },
  { name: "staging", type: "preproduction", sortOrder: 150, changeRequests: { requiredApprovals: 1 } },
  { name: "production", type: "production", sortOrder: 200, changeRequests: { requiredApprovals: 2 } },
] as const;

export type DemoUserName = "alice" | "bob" | "carol";

/** Editors all: nobody approves their own change, so four eyes are needed throughout. */
export const DEMO_USERS: { username: DemoUserName; name: string; role: "Editor" }[] = [
  { username: "alice", name: "Alice Author", role: "Editor" },
  { username: "bob", name: "Bob Reviewer", role: "Editor" },
  { username: "carol", name: "Carol Reviewer", role: "Editor" },
];

const json = (value: unknown) => ({ type: "json" as const, value: JSON.stringify(value) });

export const DEMO_FEATURES: {
  name: string;
  /** One of the seeded feature types. */
  type: string;
  description: string;
  enabledIn: string[];
  variants: Record<string, VariantInput[]>;
}[] = [
  {
    name: "checkout-flow",
    type: "release",
    description: "The one-page checkout replacing the three-step one.",
    enabledIn: ["development", "staging"],
    variants: {
      development: [
        { name: "one-page", weightType: "variable", stickiness: "userId", payload: json({ steps: 1 }), overrides: [] },
        { name: "classic", weightType: "variable", stickiness: "userId", payload: json({ steps: 3 }), overrides: [] },
      ],
      staging: [
        {
          name: "one-page",
          weightType: "variable",
          stickiness: "userId",
          payload: json({ steps: 1 }),
          overrides: [{ contextName: "userId", values: ["qa-1", "qa-2"] }],
        },
        { name: "classic", weightType: "variable", stickiness: "userId", payload: json({ steps: 3 }), overrides: [] },
      ],
      production: [
        { name: "classic", weight: 900, weightType: "fix", stickiness: "userId", payload: json({ steps: 3 }), overrides: [] },
        { name: "one-page", weightType: "variable", stickiness: "userId", payload: json({ steps: 1 }), overrides: [] },
      ],
    },
  },
  {
    name: "search-ranking",
    type: "experiment",
    description: "Which ranking the search results use.",
    enabledIn: ["development"],
    variants: {
      development: [
        { name: "bm25", weightType: "variable", stickiness: "default", overrides: [] },
        { name: "semantic", weightType: "variable", stickiness: "default", overrides: [] },
        { name: "hybrid", weightType: "variable", stickiness: "default", payload: { type: "number", value: "0.7" }, overrides: [] },
      ],
      production: [{ name: "bm25", weightType: "variable", stickiness: "default", overrides: [] }],
    },
  },
  { name: "dark-mode", type: "release", description: "A dark theme; it has no variants.", enabledIn: ["development"], variants: {} },
];

/** A segment the demo's strategies share: QA and beta users. */
export const DEMO_SEGMENT = {
  name: "beta-testers",
  description: "QA and opted-in beta users.",
  constraints: [{ contextName: "userId", operator: "IN" as const, values: ["qa-1", "qa-2", "beta-7"] }],
};

/** Activation strategies by feature and environment; `withSegment` adds DEMO_SEGMENT. */
export const DEMO_STRATEGIES: { feature: string; environment: string; strategy: Record<string, unknown>; withSegment?: boolean }[] = [
  { feature: "checkout-flow", environment: "development", strategy: { name: "default" } },
  {
    feature: "checkout-flow",
    environment: "staging",
    strategy: {
      name: "flexibleRollout",
      title: "Beta testers",
      parameters: { rollout: "100", stickiness: "userId", groupId: "checkout-flow" },
    },
    withSegment: true,
  },
  {
    feature: "checkout-flow",
    environment: "production",
    strategy: {
      name: "flexibleRollout",
      title: "10% of signed-in users on web",
      parameters: { rollout: "10", stickiness: "userId", groupId: "checkout-flow" },
      constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
    },
  },
  { feature: "search-ranking", environment: "development", strategy: { name: "userWithId", parameters: { userIds: "qa-1,qa-2" } } },
  { feature: "dark-mode", environment: "development", strategy: { name: "gradualRolloutRandom", parameters: { percentage: "50" } } },
];

/** dark-mode is only served where checkout-flow is on. */
export const DEMO_DEPENDENCY = { child: "dark-mode", parent: "checkout-flow" };

export interface DemoChangeRequest {
  author: DemoUserName;
  environment: string;
  feature: string;
  action: ChangeAction;
  payload: Record<string, unknown>;
  /** Who does what after the author adds the change, in order; `submit` is the author's. */
  steps: ({ by: DemoUserName; state: ChangeRequestState; comment?: string; inDays?: number } | "submit")[];
  /** The state it must end in; the loader checks it. */
  ends: ChangeRequestState;
}

/**
 * In the order they are made: a user has one open request per environment, so each closed one
 * comes before the next opens. alice ends with three pending, bob with one.
 */
export const DEMO_CHANGE_REQUESTS: DemoChangeRequest[] = [
  {
    author: "alice",
    environment: "production",
    feature: "checkout-flow",
    action: "patchVariant",
    payload: {
      variants: [
        { name: "classic", weight: 500, weightType: "fix", stickiness: "userId" },
        { name: "one-page", stickiness: "userId" },
      ],
    },
    steps: [
      "submit",
      { by: "bob", state: "Approved" },
      { by: "carol", state: "Approved" },
      { by: "bob", state: "Applied", comment: "Half of the traffic, as planned." },
    ],
    ends: "Applied",
  },
  {
    author: "alice",
    environment: "production",
    feature: "search-ranking",
    action: "updateEnabled",
    payload: { enabled: true },
    steps: [
      "submit",
      { by: "bob", state: "Approved" },
      { by: "carol", state: "Approved" },
      { by: "carol", state: "Scheduled", inDays: 7, comment: "After the sale." },
    ],
    ends: "Scheduled",
  },
  {
    author: "alice",
    environment: "production",
    feature: "search-ranking",
    action: "patchVariant",
    payload: { variants: [{ name: "bm25", weight: 500, weightType: "fix" }, { name: "hybrid" }] },
    steps: ["submit", { by: "bob", state: "Approved", comment: "Fine by me; carol has the second look." }],
    ends: "In review",
  },
  {
    author: "alice",
    environment: "staging",
    feature: "checkout-flow",
    action: "updateEnabled",
    payload: { enabled: false },
    steps: [{ by: "alice", state: "Cancelled", comment: "Opened by mistake." }],
    ends: "Cancelled",
  },
  {
    author: "alice",
    environment: "staging",
    feature: "search-ranking",
    action: "patchVariant",
    payload: { variants: [{ name: "semantic" }] },
    steps: ["submit", { by: "carol", state: "Rejected", comment: "Semantic alone failed the relevance test." }],
    ends: "Rejected",
  },
  {
    author: "alice",
    environment: "staging",
    feature: "dark-mode",
    action: "updateEnabled",
    payload: { enabled: true },
    steps: ["submit", { by: "carol", state: "Approved" }],
    ends: "Approved",
  },
  {
    author: "bob",
    environment: "staging",
    feature: "checkout-flow",
    action: "patchVariant",
    payload: { variants: [{ name: "one-page", stickiness: "userId" }] },
    steps: [],
    ends: "Draft",
  },
];
