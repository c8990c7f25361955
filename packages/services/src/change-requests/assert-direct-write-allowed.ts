import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";
import { type Principal, principalHasPermission } from "../auth/principal.ts";
import { NoAccessError } from "../errors/domain-error.ts";
import { enabledChangeRequestSettings } from "./change-request-settings.ts";

/**
 * The four-eyes rule: where change requests are enabled, a direct write is its bypass, so only
 * holders of SKIP_CHANGE_REQUEST may make one; everyone else (the system too, `by` null) is told
 * to propose the change instead. Every direct environment write's command runs this first;
 * applying a reviewed request calls the steps after it, never this.
 */
export async function assertDirectWriteAllowed(
  trx: Transaction<Database>,
  by: Principal | null,
  path: { projectId: string; environment: string },
): Promise<void> {
  if (by && principalHasPermission(by, "SKIP_CHANGE_REQUEST", path.projectId)) return;
  if (!(await enabledChangeRequestSettings(trx, path.projectId, path.environment))) return;
  throw new NoAccessError(
    `Change requests are enabled for the "${path.environment}" environment of the project "${path.projectId}": ` +
      `propose this change in a change request, or ask for the "SKIP_CHANGE_REQUEST" permission.`,
    "SKIP_CHANGE_REQUEST",
  );
}

/**
 * Dependencies belong to a feature, not to one environment: a direct write is the four-eyes
 * rule's bypass wherever any environment of the project requires change requests.
 */
export async function assertDirectFeatureWriteAllowed(trx: Transaction<Database>, by: Principal | null, projectId: string): Promise<void> {
  if (by && principalHasPermission(by, "SKIP_CHANGE_REQUEST", projectId)) return;
  const gated = await trx
    .selectFrom("change_request_settings")
    .select("environment_name")
    .where("project_id", "=", projectId)
    .where("enabled", "=", true)
    .orderBy("environment_name")
    .executeTakeFirst();
  if (gated) await assertDirectWriteAllowed(trx, by, { projectId, environment: gated.environment_name });
}
