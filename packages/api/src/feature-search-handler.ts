import { type FeatureSearchResult, featureSearchQuerySchema, searchFeatures } from "@vexil/services";
import { queryParameters } from "./query-parameters.ts";
import { featureSearchResultSchema } from "./schemas/feature-search.ts";
import { toJson } from "./schemas/to-json.ts";
import { assertStorableText } from "./storable-text.ts";
import type { RawHandler } from "./trpc.ts";

/**
 * Each result's JSON as UTF-8 bytes, made once per result object: the search answers the same
 * object for a flag while nothing it shows has changed (docs/search.md#response), and forgets it
 * with the object. Bytes rather than text, each in memory of its own outside the JavaScript heap: a
 * page is then copied once, into the answer, rather than joined, measured and encoded as text
 * (docs/search.md#response).
 */
const jsonOfResult = new WeakMap<FeatureSearchResult, Buffer>();

/**
 * Text as UTF-8 bytes in memory of their own: not from Buffer's shared pool, where a slice kept
 * long holds its whole 8 kB slab for as long as it is kept.
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

const PAGE_START = ownBytes('{"features":[');
const RESULT_SEPARATOR = ownBytes(",");

/**
 * A result as JSON, checked against the output schema as the procedure's output is (and its fields
 * in that order). A result that fails it is the server's bug, not the caller's: a 500, as the
 * procedure's output would be.
 */
function resultJson(result: FeatureSearchResult): Buffer {
  let json = jsonOfResult.get(result);
  if (json === undefined) {
    const checked = featureSearchResultSchema.safeParse(toJson(result));
    if (!checked.success) throw new Error(`A search result does not match its schema: ${checked.error.message}`);
    json = ownBytes(JSON.stringify(checked.data));
    jsonOfResult.set(result, json);
  }
  return json;
}

/**
 * `GET /api/admin/search/features` over REST, a raw handler rather than the procedure, for speed
 * alone (docs/search.md#response): the same checks of the query as the procedure's (unstorable
 * text, then its schema, each a 400 by the same error), the same service, and the same JSON, but
 * each result's JSON is made once, as bytes, and the page's copied into the answer.
 */
export const handleFeatureSearch: RawHandler = async (req, res, ctx) => {
  const url = req.url ?? "/";
  const input = queryParameters(url, url.indexOf("?"));
  assertStorableText(input);
  const page = await searchFeatures(ctx.db, featureSearchQuerySchema.parse(input));
  if (!Number.isInteger(page.total)) throw new Error(`A search's total is not an integer: ${page.total}`);
  const parts: Buffer[] = [PAGE_START];
  for (const [i, result] of page.features.entries()) {
    if (i > 0) parts.push(RESULT_SEPARATOR);
    parts.push(resultJson(result));
  }
  parts.push(Buffer.from(`],"total":${page.total}}`));
  const body = Buffer.concat(parts);
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
  res.end(body);
};
