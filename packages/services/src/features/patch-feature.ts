import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { ValidationError, type ValidationDetail } from "../errors/domain-error.ts";
import { inRetriedTransaction } from "../transactions/in-transaction.ts";
import { applyJsonPatch, type JsonPatchOperation } from "./apply-json-patch.ts";
import { changeFeatureMetadata } from "./change-feature-metadata.ts";
import { type Feature, featureFromRow } from "./feature.ts";
import { lockFeatureOfProject } from "./lock-feature-of-project.ts";

const PATCHABLE = ["/description", "/type", "/stale", "/impressionData"];

/** Which members an operation writes: its `path`, and for a move the `from` it removes; a test writes nothing. */
function writtenPointers(operation: JsonPatchOperation): string[] {
  if (operation.op === "test") return [];
  return operation.op === "move" ? [operation.path, operation.from] : [operation.path];
}

/** Unleash ignores operations on other members and answers 200; here they are a 400 and nothing changes. */
function assertPatchable(operations: JsonPatchOperation[]): void {
  const details: ValidationDetail[] = [];
  operations.forEach((operation, i) => {
    for (const pointer of writtenPointers(operation)) {
      if (PATCHABLE.includes(pointer)) continue;
      const message = pointer.startsWith("/variants")
        ? "variants are changed with PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants"
        : `only ${PATCHABLE.join(", ")} can be changed, not "${pointer}"`;
      details.push({ path: `patch.${i}`, message });
    }
  });
  if (details.length) throw new ValidationError(`The patch cannot be applied: ${details.map((d) => d.message).join("; ")}.`, details);
}

/** The patched document's members, checked as a PUT body's would be. */
function patchedChanges(document: unknown) {
  const doc = (document ?? {}) as Record<string, unknown>;
  const details: ValidationDetail[] = [];
  const description = doc.description ?? null;
  if (description !== null && typeof description !== "string") details.push({ path: "description", message: "must be a string or null" });
  if (typeof doc.type !== "string") details.push({ path: "type", message: "must be a string" });
  for (const field of ["stale", "impressionData"]) {
    if (typeof doc[field] !== "boolean") details.push({ path: field, message: "must be a boolean" });
  }
  if (typeof document !== "object" || document === null || Array.isArray(document) || details.length) {
    const what = details.length ? details.map((d) => `"${d.path}" ${d.message}`).join(", ") : "it must stay an object";
    throw new ValidationError(
      `The feature after the patch is not valid: ${what}.`,
      details.length ? details : [{ path: "", message: what }],
    );
  }
  return {
    description: description as string | null,
    type: doc.type as string,
    stale: doc.stale as boolean,
    impressionData: doc.impressionData as boolean,
  };
}

/**
 * PATCH a feature: an RFC 6902 patch applied to the feature as GET shows it, all operations or
 * none, that may write only `description`, `type`, `stale` and `impressionData` (a `test` may read
 * any member). The result is stored and its events appended as a PUT's are.
 */
export async function patchFeature(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  operations: JsonPatchOperation[],
): Promise<Feature> {
  assertPatchable(operations);
  return inRetriedTransaction(db, async (trx) => {
    const row = await lockFeatureOfProject(trx, path);
    const patched = applyJsonPatch(JSON.parse(JSON.stringify(featureFromRow(row))), operations);
    return changeFeatureMetadata(trx, by, row, patchedChanges(patched));
  });
}
