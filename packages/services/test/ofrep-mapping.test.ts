import { test } from "uvu";
import * as assert from "uvu/assert";
import type { FlagEvaluation } from "../src/frontend-evaluation/frontend-evaluator.ts";
import { ValidationError } from "../src/errors/domain-error.ts";
import { unleashContextFromOfrep } from "../src/ofrep/ofrep-context.ts";
import { ofrepEvaluation } from "../src/ofrep/ofrep-evaluation.ts";

// The OFREP mapping (docs/ofrep.md#ofrep), rule by rule; the HTTP tests run it through the real evaluator.

const flag = (over: Partial<FlagEvaluation>): FlagEvaluation => ({
  name: "f",
  switchedOn: true,
  enabled: true,
  variant: { name: "disabled", enabled: false },
  hasVariants: false,
  hasStrategies: false,
  variantFromStrategy: false,
  ...over,
});
const variant = (payload?: { type: string; value: string }) =>
  flag({ hasVariants: true, variant: { name: "v", enabled: true, ...(payload ? { payload } : {}) } });

test("targetingKey is the userId, the Unleash fields are themselves, the rest are properties as text", () => {
  assert.equal(
    unleashContextFromOfrep({
      targetingKey: "u1",
      sessionId: "s",
      remoteAddress: "192.0.2.1",
      appName: "app",
      environment: "prod",
      currentTime: "2024-01-01T00:00:00Z",
      plan: "gold",
      seats: 3,
      beta: true,
      tags: ["a", "b"],
      gone: null,
    }),
    {
      userId: "u1",
      sessionId: "s",
      remoteAddress: "192.0.2.1",
      appName: "app",
      environment: "prod",
      currentTime: "2024-01-01T00:00:00Z",
      properties: { plan: "gold", seats: "3", beta: "true", tags: '["a","b"]' },
    },
  );
  assert.equal(unleashContextFromOfrep(undefined), {});
  assert.equal(unleashContextFromOfrep({ userId: "u", targetingKey: "u" }), { userId: "u" });
});

test("a context that breaks a rule names its path under context", () => {
  const pathOf = (context: unknown) => {
    try {
      unleashContextFromOfrep(context);
      return "accepted";
    } catch (error) {
      assert.instance(error, ValidationError);
      return (error as ValidationError).details[0]?.path;
    }
  };
  assert.is(pathOf("alice"), "context");
  assert.is(pathOf([1]), "context");
  assert.is(pathOf({ targetingKey: "a", userId: "b" }), "context.userId");
  assert.is(pathOf({ sessionId: { nested: true } }), "context.sessionId");
  assert.is(pathOf({ currentTime: "soon" }), "context.currentTime");
  assert.is(pathOf({ plan: "x".repeat(1001) }), "context.plan");
});

test("a flag without variants is a boolean: STATIC, TARGETING_MATCH, or DEFAULT false", () => {
  assert.equal(ofrepEvaluation(flag({})), { key: "f", reason: "STATIC", value: true, metadata: { enabled: true } });
  assert.equal(ofrepEvaluation(flag({ hasStrategies: true })), {
    key: "f",
    reason: "TARGETING_MATCH",
    value: true,
    metadata: { enabled: true },
  });
  assert.equal(ofrepEvaluation(flag({ hasStrategies: true, enabled: false })), {
    key: "f",
    reason: "DEFAULT",
    value: false,
    metadata: { enabled: false },
  });
});

test("a flag switched off answers DISABLED: false without variants, no value with them", () => {
  assert.equal(ofrepEvaluation(flag({ switchedOn: false, enabled: false })), {
    key: "f",
    reason: "DISABLED",
    value: false,
    metadata: { enabled: false },
  });
  assert.equal(ofrepEvaluation({ ...variant(), switchedOn: false, enabled: false }), {
    key: "f",
    reason: "DISABLED",
    metadata: { enabled: false },
  });
});

test("a variant answers its payload by type, or its name", () => {
  assert.is(ofrepEvaluation(variant({ type: "string", value: "navy" })).value, "navy");
  assert.is(ofrepEvaluation(variant({ type: "number", value: "-1.5e2" })).value, -150);
  assert.is(ofrepEvaluation(variant({ type: "number", value: "many" })).value, "many");
  assert.is(ofrepEvaluation(variant({ type: "number", value: " " })).value, " ");
  assert.equal(ofrepEvaluation(variant({ type: "json", value: '{"a":[1]}' })).value, { a: [1] });
  assert.is(ofrepEvaluation(variant({ type: "json", value: "{broken" })).value, "{broken");
  assert.is(ofrepEvaluation(variant({ type: "csv", value: "a,b" })).value, "a,b");
  assert.equal(ofrepEvaluation(variant()), { key: "f", reason: "SPLIT", variant: "v", value: "v", metadata: { enabled: true } });
  assert.is(ofrepEvaluation({ ...variant(), variantFromStrategy: true }).reason, "TARGETING_MATCH");
  // On, with variants, but none for this context: no value, the code's default.
  assert.equal(ofrepEvaluation(flag({ hasVariants: true, enabled: false })), { key: "f", reason: "DEFAULT", metadata: { enabled: false } });
});

test.run();
