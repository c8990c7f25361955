import type { ErrorName } from "./error-response.ts";
import type { RestRoute } from "./rest-routes.ts";

/** Which error names one REST operation can answer, in the order of docs/errors.md#check-order. */
export function operationFailures({ meta, params, hasBody }: RestRoute): ErrorName[] {
  const hasParams = params.length > 0;
  const names: ErrorName[] = [];
  if ((meta.access ?? "authenticated") !== "public") {
    // A client or frontend token is refused on every admin route, whatever the permission.
    names.push("AuthenticationRequired", "NoAccessError");
  }
  if (hasBody) names.push("ContentTypeerror", "PayloadTooLarge");
  // A path parameter can be badly encoded; a body can be malformed or break a rule.
  if (hasParams || hasBody) names.push("ValidationError");
  // Every path parameter names something that may not exist.
  if (hasParams) names.push("NotFoundError");
  for (const name of meta.failures ?? []) if (!names.includes(name)) names.push(name);
  // Every request may meet an unreachable database (a token or a session is looked up there too).
  names.push("InternalError", "ServiceUnavailable");
  return names;
}
