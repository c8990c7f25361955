import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Refusal, SpecState } from "./specification-state.ts";

/** The client specification files and what the admin API refuses of them: shared by every test that runs them. */
export const SPEC_DIR = join(
  dirname(createRequire(import.meta.url).resolve("@unleash/client-specification/package.json")),
  "specifications",
);
// 19 and 20 are the delta API: client-specification-streaming.test.ts runs them through its events.
export const FILES = readdirSync(SPEC_DIR)
  .filter((f) => /^\d\d-.*\.json$/.test(f) && !/^(19|20)-/.test(f))
  .sort();

export interface SpecFile {
  name: string;
  state: SpecState;
  tests?: { description: string; context: Record<string, unknown>; toggleName: string; expectedResult: boolean }[];
  variantTests?: { description: string; context: Record<string, unknown>; toggleName: string; expectedResult: Record<string, unknown> }[];
}

/**
 * What the admin API refuses by its own rules (docs/sdk-protocols.md#specification-states), by file and feature: each refusal
 * is asserted, and the cases of those features are not run. Nothing else may be refused.
 */
// Variants are stored per mille (docs/flag-model.md#variant-weights), and SDKs pick by the hash modulo the total, so
// weights with another total have no per-mille equivalent: sent as written, they are refused.
const weights = (w: string) => `variant weights ${w} do not add up to 1000`;
const EXPECTED_REFUSALS: Record<string, Record<string, string>> = {
  "08-variants.json": {
    "Feature.Variants.B": weights("1+1"),
    "Feature.Variants.C": weights("33+33+33"),
    "Feature.Variants.D": weights("1+49+50"),
    "Feature.Variants.override.D": weights("33+33+34"),
  },
  "12-custom-stickiness.json": { "Feature.flexible.rollout.custom.stickiness_100": weights("25+25+25+25") },
  "13-constraint-operators.json": { "F7.invalid-operator": "NOT_A_VALID_OPERATOR is not an operator" },
  "14-constraint-semver-operators.json": { "F8.invalidSemverWithLeadingV": '"v2.0.0" is not a semantic version' },
  "15-global-constraints.json": {
    "F9.withMissingSegment": "segment 404 does not exist",
    "F9.globalSegmentOn": weights("25+25+25+25"),
  },
  "16-strategy-variants.json": {
    "Feature.strategy.multiple.variants": weights("1+1"),
    "Feature.strategy.numeric.variants": weights("1+1"),
    "Feature.strategy.variants.stickiness": weights("1+1"),
  },
  "17-dependent-features.json": {
    "child.with.cycle": "a cycle of dependencies",
    "child.with.transitive.dependency": "dependencies are one level deep",
    "parents.not.exist.child.enabled": "the parent does not exist",
  },
  "18-utf8-flag-names.json": {
    "Feature.UTF-8.Hellø_Wørld": "a feature name must need no URL encoding",
    "Feature.UTF-8.😊_φriend_你好_🌍": "a feature name must need no URL encoding",
  },
  "21-regex-constraint-operators.json": {
    "invalid-regex-defaults-to-false": '"(regex" does not compile',
    "R90.reject_lookahead": "RE2 has no lookahead",
    "R91.reject_backreference": "RE2 has no back-references",
  },
  "22-cidr-constraint-operators.json": {
    "CIDR.mixed.values": '"127.invalid" is not an address or a range',
    "CIDR.invalid.only": '"127.invalid" is not an address or a range',
    "CIDR.ipv6.mixed.values": '"bad::cidr" is not an address or a range',
  },
};

/** The features whose cases cannot mean what the file says: refused ones, and children of refused parents. */
export function unservable(file: SpecFile, refused: Set<string>): Set<string> {
  const out = new Set(refused);
  for (const f of file.state.features) if (f.dependencies?.some((d) => out.has(d.feature))) out.add(f.name);
  return out;
}

export function readSpecFile(fileName: string): SpecFile {
  return JSON.parse(readFileSync(join(SPEC_DIR, fileName), "utf8")) as SpecFile;
}

/** What is wrong with a file's refusals: a feature refused that the list does not name, or the reverse, or a refusal that is not a 400. */
export function refusalProblems(fileName: string, refusals: Refusal[]): string[] {
  const problems: string[] = [];
  const expected = EXPECTED_REFUSALS[fileName] ?? {};
  const refusedFeatures = [...new Set(refusals.map((r) => r.feature))].sort();
  if (JSON.stringify(refusedFeatures) !== JSON.stringify(Object.keys(expected).sort())) {
    problems.push(`${fileName}: refused ${JSON.stringify(refusals)}; expected refusals of ${JSON.stringify(Object.keys(expected))}`);
  }
  for (const r of refusals) {
    if (r.status !== 400 || r.name !== "ValidationError") problems.push(`${fileName}: ${r.feature} refused with ${r.status} ${r.name}`);
  }
  return problems;
}

/** The reasons of a file's expected refusals, for the report line. */
export function refusalReasons(fileName: string): string {
  return Object.entries(EXPECTED_REFUSALS[fileName] ?? {})
    .map(([feature, reason]) => `${feature} (${reason})`)
    .join(", ");
}
