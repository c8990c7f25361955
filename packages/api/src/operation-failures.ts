import type { ErrorName } from "./error-response.ts";
import type { Meta } from "./trpc.ts";

/** Methods whose requests the REST bridge reads a body for. */
export const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/** Which error names one REST operation can answer, in the contract's check order. */
export function operationFailures(meta: Meta): ErrorName[] {
  const openapi = meta.openapi;
  if (!openapi) return [];
  const hasParams = /\{\w+\}/.test(openapi.path);
  const hasBody = METHODS_WITH_BODY.has(openapi.method);
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
