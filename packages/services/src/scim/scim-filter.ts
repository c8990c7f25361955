import { ScimRefusal } from "./scim-refusal.ts";

/** One `attribute eq "value"` of a filter, the attribute lower-cased (SCIM's names are case-insensitive). */
interface ScimEquality {
  attribute: string;
  value: string;
}

const EQUALITY = /^\s*([A-Za-z][\w.:-]*)\s+eq\s+("(?:[^"\\]|\\.)*")\s*(?:$|\s+and\s+)/i;

/**
 * The filters identity providers send before they create (RFC 7644 §3.4.2.2): `attr eq "value"`,
 * joined by `and`, on the attributes `allowed` names. Anything else (other operators, `or`,
 * brackets, other attributes) is refused as invalidFilter, never read as something broader.
 */
export function parseScimFilter(filter: string | undefined, allowed: readonly string[]): ScimEquality[] {
  if (filter === undefined || filter.trim() === "") return [];
  const terms: ScimEquality[] = [];
  let rest = filter;
  while (rest.trim() !== "") {
    const match = EQUALITY.exec(rest);
    if (!match) {
      throw new ScimRefusal(
        "invalidFilter",
        `The filter "${filter}" is not supported: Vexil takes attribute eq "value" terms joined by and, on ${allowed.join(", ")}.`,
        "filter",
      );
    }
    const attribute = (match[1] as string).toLowerCase();
    if (!allowed.some((a) => a.toLowerCase() === attribute)) {
      throw new ScimRefusal("invalidFilter", `The filter cannot compare "${match[1]}"; it can compare ${allowed.join(", ")}.`, "filter");
    }
    let value: unknown;
    try {
      value = JSON.parse(match[2] as string);
    } catch {
      throw new ScimRefusal("invalidFilter", `The value ${match[2]} of the filter is not a valid string.`, "filter");
    }
    // An escaped NUL is no text Postgres can compare.
    if ((value as string).includes("\u0000"))
      throw new ScimRefusal("invalidFilter", "The filter's value contains a NUL character.", "filter");
    terms.push({ attribute, value: value as string });
    rest = rest.slice(match[0].length);
    if (/\s+and\s+$/i.test(match[0]) && rest.trim() === "") {
      throw new ScimRefusal("invalidFilter", `The filter "${filter}" ends with "and".`, "filter");
    }
  }
  return terms;
}

/** SCIM's paging (RFC 7644 §3.4.2.4): a 1-based startIndex (below 1 counts as 1) and a count, at most `max`. */
export function scimPage(startIndex: number | undefined, count: number | undefined, max: number): { offset: number; limit: number } {
  const start = startIndex === undefined || startIndex < 1 ? 1 : Math.floor(startIndex);
  const limit = count === undefined ? max : Math.max(0, Math.min(max, Math.floor(count)));
  return { offset: start - 1, limit };
}
