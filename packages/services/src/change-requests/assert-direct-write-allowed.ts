import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { type Principal, principalHasPermission } from "../auth/principal.ts";
import { NoAccessError } from "../errors/domain-error.ts";
import { enabledChangeRequestSettings } from "./change-request-settings.ts";

/**
 * Where change requests are enabled, a direct write is the four-eyes rule's bypass: only holders
 * of SKIP_CHANGE_REQUEST may make one; everyone else is told to propose the change instead.
 */
export async function assertDirectWriteAllowed(
  db: Kysely<Database>,
  by: Principal,
  path: { projectId: string; environment: string },
): Promise<void> {
  if (principalHasPermission(by, "SKIP_CHANGE_REQUEST")) return;
  if (!(await enabledChangeRequestSettings(db, path.projectId, path.environment))) return;
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
export async function assertDirectFeatureWriteAllowed(db: Kysely<Database>, by: Principal, projectId: string): Promise<void> {
  if (principalHasPermission(by, "SKIP_CHANGE_REQUEST")) return;
  const gated = await db
    .selectFrom("change_request_settings")
    .select("environment_name")
    .where("project_id", "=", projectId)
    .where("enabled", "=", true)
    .orderBy("environment_name")
    .executeTakeFirst();
  if (gated) await assertDirectWriteAllowed(db, by, { projectId, environment: gated.environment_name });
}
