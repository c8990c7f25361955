import { RootRole } from "@vexil/services";

/**
 * Examples for the reference page, by procedure path: a request body as sent over REST and a
 * success body. The OpenAPI test checks each against the procedure's own zod schemas.
 */
export interface OperationExample {
  body?: unknown;
  response?: unknown;
}

const createdAt = "2025-05-12T09:30:00.000Z";
const admin = { id: 1, username: "admin", imageUrl: "https://gravatar.com/avatar/21232f297a57a5a743894a0e4a801fc3?s=42&d=retro&r=g" };

const variants = [
  { name: "blue", weight: 500, weightType: "variable", stickiness: "default", overrides: [] },
  {
    name: "green",
    weight: 500,
    weightType: "variable",
    stickiness: "userId",
    payload: { type: "json", value: '{"color":"#2e7d32"}' },
    overrides: [{ contextName: "userId", values: ["alice", "bob"] }],
  },
];

export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  "banners.create": {
    body: { message: "Maintenance at **noon**", variant: "warning", sticky: true, link: "dialog", dialog: "We upgrade the database." },
    response: {
      id: 7,
      message: "Maintenance at **noon**",
      enabled: true,
      variant: "warning",
      sticky: true,
      icon: null,
      link: "dialog",
      linkText: null,
      dialogTitle: null,
      dialog: "We upgrade the database.",
      createdAt,
    },
  },
  "auth.login": {
    body: { username: "admin", password: "unleash4all" },
    response: {
      id: 1,
      name: null,
      email: null,
      username: "admin",
      imageUrl: admin.imageUrl,
      loginAttempts: 0,
      seenAt: "2025-05-11T17:02:41.000Z",
      createdAt,
      accountType: "User",
      rootRole: RootRole.Admin,
      emailSent: false,
      permissions: [],
    },
  },
  "features.variants": { response: { version: 1, variants } },
  "features.replaceVariants": {
    body: [
      { name: "blue", weightType: "variable", stickiness: "default" },
      {
        name: "green",
        weightType: "variable",
        stickiness: "userId",
        payload: { type: "json", value: '{"color":"#2e7d32"}' },
        overrides: [{ contextName: "userId", values: ["alice", "bob"] }],
      },
    ],
    response: { version: 1, variants },
  },
  "features.patchVariants": {
    body: [
      { op: "replace", path: "/0/weightType", value: "fix" },
      { op: "add", path: "/0/weight", value: 200 },
    ],
    response: {
      version: 1,
      variants: [
        { ...variants[0], weight: 200, weightType: "fix" },
        { ...variants[1], weight: 800 },
      ],
    },
  },
  "changeRequests.pending": {
    response: [
      {
        id: 12,
        version: 3,
        title: "Blue for everyone",
        environment: "production",
        minApprovals: 1,
        project: "default",
        features: [
          {
            name: "checkout",
            changes: [
              {
                id: 31,
                action: "patchVariant",
                payload: { variants: [{ name: "blue", weightType: "variable" }] },
                createdAt,
                createdBy: admin,
              },
            ],
          },
        ],
        segments: [],
        approvals: [],
        rejections: [],
        comments: [],
        createdBy: admin,
        createdAt,
        state: "In review",
        actions: ["Approved", "Rejected", "Cancelled"],
      },
      {
        id: 14,
        version: 2,
        environment: "production",
        minApprovals: 1,
        project: "default",
        features: [
          { name: "search", changes: [{ id: 35, action: "updateEnabled", payload: { enabled: true }, createdAt, createdBy: admin }] },
        ],
        segments: [],
        approvals: [{ createdBy: { id: 2, username: "erin", imageUrl: admin.imageUrl }, createdAt }],
        rejections: [],
        comments: [],
        createdBy: admin,
        createdAt,
        state: "Scheduled",
        schedule: { scheduledAt: "2025-05-13T06:00:00.000Z", status: "pending" },
        actions: ["Applied", "Rejected", "Cancelled"],
      },
    ],
  },
  "apiTokens.create": {
    body: { tokenName: "ci", type: "admin" },
    response: {
      id: 3,
      tokenName: "ci",
      type: "admin",
      projects: ["*"],
      environment: "*",
      expiresAt: null,
      createdAt,
      secret: "*:*.5c1b0f6e9a8d4c2e7b3a1f0d9e8c7b6a",
    },
  },
};
