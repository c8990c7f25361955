import { test } from "uvu";
import { peerSuite } from "./support/peer-steps.ts";
import type { Reply } from "./support/test-server.ts";

// The playground (docs/playground.md) on Unleash 8.2 and on Vexil, for the same flags and contexts:
// a gradual rollout constrained to `plan IN pro` with a segment, a flag switched off, one without
// strategies, a parent and its child, strategy variants, a 50% rollout by userId, a NOT_IN and a
// case-insensitive constraint. Each flag's answer and, strategy by strategy and constraint by
// constraint, what held must be the same.
const suite = await peerSuite("peer playground");
if (suite) {
  const { step, differs } = suite;
  const project = "/api/admin/projects/default";
  const development = (name: string) => `${project}/features/${name}/environments/development`;
  const IN = (contextName: string, values: string[], extra: object = {}) => ({
    contextName,
    operator: "IN",
    values,
    inverted: false,
    caseInsensitive: false,
    ...extra,
  });

  /** What both must answer alike: per flag, its answer and each strategy's, segment's and constraint's result; ids and links aside. */
  const answers = (reply: Reply) =>
    [...(reply.json?.features ?? [])]
      // Its overall result differs by a decision, recorded in its own step below.
      .filter((f: any) => f.name !== "with-disabled")
      .sort((a: any, b: any) => a.name.localeCompare(b.name))
      .map((f: any) => ({
        name: f.name,
        projectId: f.projectId,
        isEnabled: f.isEnabled,
        isEnabledInCurrentEnvironment: f.isEnabledInCurrentEnvironment,
        hasUnsatisfiedDependency: f.hasUnsatisfiedDependency,
        variant: f.variant,
        strategies: {
          result: f.strategies?.result,
          data: f.strategies?.data?.map((s: any) => ({
            name: s.name,
            disabled: s.disabled,
            parameters: s.parameters,
            result: { evaluationStatus: s.result?.evaluationStatus, enabled: s.result?.enabled, variant: s.result?.variant?.name },
            constraints: s.constraints?.map((c: any) => [c.contextName, c.operator, c.values ?? c.value, c.result]),
            segments: s.segments?.map((g: any) => [g.name, g.result, g.constraints?.map((c: any) => c.result)]),
          })),
        },
      }));

  const flag = (name: string) => step(`create ${name}`, "POST", `${project}/features`, { name }, 201, (r) => r.json?.name);
  const strategy = (name: string, body: object) =>
    step(`a ${(body as { name: string }).name} strategy for ${name}`, "POST", `${development(name)}/strategies`, body, 200);
  const on = (name: string) => step(`switch ${name} on`, "POST", `${development(name)}/on`, undefined, 200);

  step(
    "a context field with legal values",
    "POST",
    "/api/admin/context",
    { name: "plan", legalValues: [{ value: "pro" }, { value: "free" }] },
    201,
  );
  step(
    "a segment (id 1 on both)",
    "POST",
    "/api/admin/segments",
    { name: "eu", constraints: [IN("region", ["eu"])] },
    201,
    (r) => r.json?.id,
  );
  flag("rollout-pro");
  strategy("rollout-pro", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "rollout-pro" },
    constraints: [IN("plan", ["pro"])],
    segments: [1],
  });
  on("rollout-pro");
  flag("off-flag");
  strategy("off-flag", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "off-flag" },
    constraints: [],
  });
  flag("no-strategy");
  flag("child");
  strategy("child", { name: "flexibleRollout", parameters: { rollout: "100", stickiness: "default", groupId: "child" }, constraints: [] });
  step("child depends on rollout-pro", "POST", `${project}/features/child/dependencies`, { feature: "rollout-pro" }, 200);
  on("child");
  flag("blue-variant");
  strategy("blue-variant", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "blue-variant" },
    constraints: [],
    variants: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default", payload: { type: "string", value: "b" } }],
  });
  on("blue-variant");
  flag("half");
  strategy("half", { name: "flexibleRollout", parameters: { rollout: "50", stickiness: "userId", groupId: "half" }, constraints: [] });
  on("half");
  flag("not-beta");
  strategy("not-beta", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "not-beta" },
    constraints: [
      { contextName: "userId", operator: "NOT_IN", values: ["u3"], inverted: false, caseInsensitive: false },
      { contextName: "email", operator: "STR_ENDS_WITH", values: ["@EXAMPLE.COM"], inverted: false, caseInsensitive: true },
    ],
  });
  on("not-beta");

  // A disabled strategy beside one that holds only for alice, and applicationHostname (incomplete on both).
  flag("with-disabled");
  strategy("with-disabled", {
    name: "flexibleRollout",
    disabled: true,
    parameters: { rollout: "100", stickiness: "default", groupId: "w" },
    constraints: [],
    sortOrder: 0,
  });
  strategy("with-disabled", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "w" },
    constraints: [IN("userId", ["alice"])],
    sortOrder: 1,
  });
  on("with-disabled");
  flag("app-host");
  strategy("app-host", { name: "applicationHostname", parameters: { hostNames: "nowhere.example" }, constraints: [IN("plan", ["pro"])] });
  on("app-host");
  const disabledResult = (reply: Reply) => reply.json?.features?.find((f: any) => f.name === "with-disabled")?.strategies?.result;
  differs(
    "a disabled strategy beside one that does not hold",
    "POST",
    "/api/admin/playground",
    { environment: "development", context: { appName: "shop", userId: "bob", properties: { plan: "pro" } } },
    200,
    200,
    "a disabled strategy counts for nothing in the result: docs/playground.md#where-vexil-differs-from-unleash",
    { pick: disabledResult, unleash: "unknown", vexil: false, alike: answers },
  );

  const contexts: [string, object][] = [
    ["a pro user in the EU", { appName: "shop", userId: "u1", properties: { plan: "pro", region: "eu", email: "a@example.com" } }],
    ["a free user", { appName: "shop", userId: "u2", properties: { plan: "free", region: "eu" } }],
    ["a pro user outside the EU", { appName: "shop", userId: "u3", properties: { plan: "pro", region: "us", email: "u3@example.com" } }],
    ["no user", { appName: "shop", sessionId: "s-1", properties: { plan: "pro", region: "eu" } }],
  ];
  for (let i = 0; i < 20; i++)
    contexts.push([`user ${i}`, { appName: "shop", userId: `user-${i}`, properties: { plan: i % 2 ? "pro" : "free", region: "eu" } }]);
  for (const [what, context] of contexts) {
    step(
      `the playground for ${what}`,
      "POST",
      "/api/admin/playground",
      { environment: "development", projects: "*", context },
      200,
      answers,
    );
  }
}

test.run();
