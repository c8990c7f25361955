import { CONSTRAINT_OPERATORS, constraintInputSchema } from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { constraintProblems, OPERATORS } from "../../web/src/constraints/constraint-values.ts";

// The console checks constraint values in the browser, without node:net or RE2; it must refuse
// exactly what the API refuses, or an editor would block a good value or send a bad one.

test("the console knows every operator the API has, and no other", () => {
  assert.equal([...OPERATORS].sort(), [...CONSTRAINT_OPERATORS].sort());
});

const SAMPLES: Record<string, string[]> = {
  number: ["0", "-1", "1.5", "1e3", "2E-2", "", " 1", "1 ", "0x1f", "01", "1.", ".5", "+1", "NaN", "Infinity", "1,5"],
  date: [
    "2026-11-24T10:00:00Z",
    "2026-11-24T10:00Z",
    "2026-11-24T10:00:00.123+01:00",
    "2026-11-24T10:00:00",
    "2026-11-24",
    "2026-13-40T10:00:00Z",
    "2026-02-30T10:00:00Z",
    "yesterday",
    "",
    "2026-11-24 10:00:00Z",
  ],
  semver: ["1.2.3", "0.0.0", "1.2.3-beta.1", "1.2.3+build.5", "v1.2.3", "01.2.3", "1.2", "1.2.3-", "", "1.2.3-01"],
  regex: [
    "^a.*b$",
    "[a-z]+",
    "(?i)abc",
    "(?=x)y",
    "(?!x)",
    "(?<=a)b",
    "(a)\\1",
    "(?<n>a)\\k<n>",
    "[",
    "(",
    "a{2,1}",
    "",
    "\\d+",
    "(?P<n>a)",
  ],
  cidr: [
    "10.0.0.0/8",
    "192.168.1.1",
    "255.255.255.255/32",
    "10.0.0.0/33",
    "256.0.0.1",
    "01.2.3.4",
    "::1",
    "2001:db8::/32",
    "2001:db8::/129",
    "fe80::1/64",
    "::ffff:1.2.3.4",
    "1.2.3",
    "1.2.3.4/",
    "1.2.3.4/8/9",
    "example.com",
    "",
    "1.2.3.4/-1",
  ],
  list: ["pro", "", "a b", "x".repeat(1000), "x".repeat(1001)],
};

test("each operator's values: the console refuses exactly what the API refuses", () => {
  const disagreements: string[] = [];
  for (const operator of OPERATORS) {
    const kind =
      operator === "IN_CIDR"
        ? "cidr"
        : operator.startsWith("NUM_")
          ? "number"
          : operator.startsWith("DATE_")
            ? "date"
            : operator.startsWith("SEMVER_")
              ? "semver"
              : operator === "REGEX"
                ? "regex"
                : "list";
    for (const sample of SAMPLES[kind] ?? []) {
      for (const caseInsensitive of [false, true]) {
        const multi = kind === "list" || kind === "cidr";
        const constraint = {
          contextName: "field",
          operator,
          inverted: false,
          caseInsensitive,
          ...(multi ? { values: [sample] } : { value: sample }),
        };
        const api = constraintInputSchema.safeParse(constraint).success;
        const console = Object.keys(constraintProblems(constraint)).length === 0;
        if (api !== console)
          disagreements.push(`${operator} ${JSON.stringify(sample)} (caseInsensitive ${caseInsensitive}): API ${api}, console ${console}`);
      }
    }
  }
  assert.equal(disagreements, []);
});

test("a context field's name: 1 to 100 characters, as the API takes it", () => {
  for (const contextName of ["", "a", "x".repeat(100), "x".repeat(101)]) {
    const constraint = { contextName, operator: "IN" as const, values: ["a"], inverted: false, caseInsensitive: false };
    assert.is(Object.keys(constraintProblems(constraint)).length === 0, constraintInputSchema.safeParse(constraint).success, contextName);
  }
});

test.run();
