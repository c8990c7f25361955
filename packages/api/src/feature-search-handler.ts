import { type FeatureSearchResult, featureSearchQuerySchema, searchFeatures } from "@vexil/services";
import { queryParameters } from "./query-parameters.ts";
import { featureSearchResultSchema } from "./schemas/feature-search.ts";
import { toJson } from "./schemas/to-json.ts";
import { assertStorableText } from "./storable-text.ts";
import type { RawHandler } from "./trpc.ts";

/**
 * Each result's JSON, made once per result object: the search answers the same object for a flag
 * while nothing it shows has changed (docs/search.md#result-json), and forgets it with the object.
 */
const jsonOfResult = new WeakMap<FeatureSearchResult, string>();

/**
 * A result as JSON, checked against the output schema as the procedure's output is (and its fields
 * in that order). A result that fails it is the server's bug, not the caller's: a 500, as the
 * procedure's output would be.
 */
function resultJson(result: FeatureSearchResult): string {
  let json = jsonOfResult.get(result);
  if (json === undefined) {
    const checked = featureSearchResultSchema.safeParse(toJson(result));
    if (!checked.success) throw new Error(`A search result does not match its schema: ${checked.error.message}`);
    json = JSON.stringify(checked.data);
    jsonOfResult.set(result, json);
  }
  return json;
}

/**
 * `GET /api/admin/search/features` over REST, a raw handler rather than the procedure, for speed
 * alone (docs/search.md#result-json): the same checks of the query as the procedure's (unstorable
 * text, then its schema, each a 400 by the same error), the same service, and the same JSON, but
 * each result's JSON is made once and the page joined from them.
 */
export const handleFeatureSearch: RawHandler = async (req, res, ctx) => {
  const url = req.url ?? "/";
  const input = queryParameters(url, url.indexOf("?"));
  assertStorableText(input);
  const page = await searchFeatures(ctx.db, featureSearchQuerySchema.parse(input));
  if (!Number.isInteger(page.total)) throw new Error(`A search's total is not an integer: ${page.total}`);
  const body = `{"features":[${page.features.map(resultJson).join(",")}],"total":${page.total}}`;
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
};
