/** The parts of a zod issue that say what was wrong (zod 4's issue shapes). */
interface Issue {
  code: string;
  message: string;
  path: readonly PropertyKey[];
  expected?: unknown;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  inclusive?: boolean;
  values?: readonly unknown[];
  keys?: readonly string[];
  format?: string;
  divisor?: number | bigint;
}

const A_TYPE: Record<string, string> = {
  string: "a text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  record: "an object",
  date: "a date",
  bigint: "a whole number",
  null: "null",
};

function bound(issue: Issue, most: boolean): string {
  const limit = Number(most ? issue.maximum : issue.minimum);
  const atLeastOrMost = `at ${most ? "most" : "least"} ${limit}`;
  if (issue.origin === "string")
    return !most && limit === 1 ? "must not be empty" : `must be ${atLeastOrMost} character${limit === 1 ? "" : "s"} long`;
  if (issue.origin === "array" || issue.origin === "set") return `must have ${atLeastOrMost} item${limit === 1 ? "" : "s"}`;
  const exclusive = issue.inclusive === false;
  return `must be ${most ? (exclusive ? "less than" : "at most") : exclusive ? "more than" : "at least"} ${limit}`;
}

/** What is wrong with the value, as the end of a sentence that starts with its field: "is required", "must be a number". */
function phrase(issue: Issue): string {
  // A message a schema wrote itself is kept: only zod's own wording is replaced.
  if (issue.code === "custom" || !/^(Invalid|Too (big|small)|Unrecognized key)/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      if (/received undefined$/.test(issue.message)) return "is required";
      return `must be ${A_TYPE[String(issue.expected)] ?? String(issue.expected)}`;
    case "too_big":
      return bound(issue, true);
    case "too_small":
      return bound(issue, false);
    case "invalid_value":
      return `must be ${issue.values?.length === 1 ? "" : "one of "}${(issue.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `has ${issue.keys?.length === 1 ? "a field" : "fields"} it does not know: ${(issue.keys ?? []).map((k) => `"${k}"`).join(", ")}`;
    case "invalid_format":
      return issue.format === "regex" ? "does not have the expected format" : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_union":
      return "does not match any of the shapes it may have";
    default:
      return "is not valid";
  }
}

/** A zod issue as a person reads it: the field it names (dotted, under `prefix`) and what is wrong with it. */
export function issueDetail(issue: Issue, prefix = ""): { path: string; message: string } {
  return { path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."), message: phrase(issue) };
}

/** The details as one sentence: "name must not be empty; type must be one of …". */
export function detailsSentence(details: readonly { path: string; message: string }[], subject: string): string {
  return `${details.map((d) => `${d.path || subject} ${d.message}`).join("; ")}.`;
}
