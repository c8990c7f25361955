import { test } from "uvu";
import { peerSuite } from "./support/peer-steps.ts";

// The harness end to end (issue 24): the source document's variants operations on a feature
// environment, and a strategy switched on in development, sent to Unleash 8.2 and to Vexil alike;
// the same statuses, the same variants bodies, the same SDK payload.
const suite = await peerSuite("peer smoke");
if (suite) {
  const { step, served } = suite;
  const variants = (feature: string) => `/api/admin/projects/default/features/${feature}/environments/development/variants`;
  const body = (reply: { json: unknown }) => reply.json;

  step("create a flag", "POST", "/api/admin/projects/default/features", { name: "checkout", description: "New checkout" }, 201);
  step("no variants yet", "GET", variants("checkout"), undefined, 200, body);
  step(
    "replace the variants: the variable ones share what the fixed one leaves",
    "PUT",
    variants("checkout"),
    [
      // Complete variants: Unleash requires every weight and weightType (a variable one's weight it
      // computes), and stores no default stickiness or overrides where Vexil fills them in (docs/peer-tests.md).
      {
        name: "blue",
        weightType: "variable",
        weight: 0,
        stickiness: "default",
        payload: { type: "json", value: '{"a":1}' },
        overrides: [{ contextName: "userId", values: ["7"] }],
      },
      { name: "green", weightType: "fix", weight: 300, stickiness: "userId", overrides: [] },
      { name: "red", weightType: "variable", weight: 0, stickiness: "default", overrides: [] },
    ],
    200,
    body,
  );
  step(
    "patch the variants: one removed, one added",
    "PATCH",
    variants("checkout"),
    [
      { op: "remove", path: "/2" },
      { op: "add", path: "/-", value: { name: "yellow", weightType: "variable", weight: 0, stickiness: "default", overrides: [] } },
    ],
    200,
    body,
  );
  step("read them back", "GET", variants("checkout"), undefined, 200, body);
  step("an unknown flag's variants", "GET", variants("ghost"), undefined, 404);
  step(
    "a gradual rollout in development",
    "POST",
    "/api/admin/projects/default/features/checkout/environments/development/strategies",
    { name: "flexibleRollout", parameters: { rollout: "40", stickiness: "default", groupId: "checkout" }, constraints: [] },
    200,
  );
  step("switch it on in development", "POST", "/api/admin/projects/default/features/checkout/environments/development/on", undefined, 200);
  served("the flag with its variants and its strategy");
}

test.run();
