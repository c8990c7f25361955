import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "../projects/require-project.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

export interface ChangeRequestConfig {
  environment: string;
  type: string;
  changeRequestsEnabled: boolean;
  requiredApprovals: number;
}

/** The change-request settings of every environment enabled in a project. */
export async function changeRequestConfig(db: Kysely<Database>, projectId: string): Promise<ChangeRequestConfig[]> {
  await requireProject(db, projectId);
  const rows = await db
    .selectFrom("project_environments as pe")
    .innerJoin("environments as e", "e.name", "pe.environment_name")
    .leftJoin("change_request_settings as s", (join) =>
      join.onRef("s.project_id", "=", "pe.project_id").onRef("s.environment_name", "=", "pe.environment_name"),
    )
    .select(["e.name", "e.type", "s.enabled", "s.required_approvals"])
    .where("pe.project_id", "=", projectId)
    .orderBy("e.sort_order")
    .orderBy("e.name")
    .execute();
  return rows.map((r) => ({
    environment: r.name,
    type: r.type,
    changeRequestsEnabled: r.enabled ?? false,
    requiredApprovals: r.required_approvals ?? 1,
  }));
}

/** Turns change requests on or off for an environment enabled in the project, and records who did. */
export async function setChangeRequestConfig(
  db: Kysely<Database>,
  by: Principal | null,
  projectId: string,
  environment: string,
  settings: { changeRequestsEnabled: boolean; requiredApprovals: number },
): Promise<ChangeRequestConfig> {
  return inTransaction(db, async (trx) => {
    await requireProject(trx, projectId);
    const env = await trx
      .selectFrom("environments as e")
      .leftJoin("project_environments as pe", (join) =>
        join.onRef("pe.environment_name", "=", "e.name").on("pe.project_id", "=", projectId),
      )
      .select(["e.name", "e.type", "pe.project_id"])
      .where("e.name", "=", environment)
      .executeTakeFirst();
    if (!env) throw new NotFoundError(`There is no environment "${environment}".`);
    if (!env.project_id) throw new NotFoundError(`The environment "${environment}" is not enabled in the project "${projectId}".`);
    const values = { enabled: settings.changeRequestsEnabled, required_approvals: settings.requiredApprovals };
    await trx
      .insertInto("change_request_settings")
      .values({ project_id: projectId, environment_name: environment, ...values })
      .onConflict((oc) => oc.columns(["project_id", "environment_name"]).doUpdateSet(values))
      .execute();
    await appendEvent(trx, by, { type: "change-request-configuration-updated", project: projectId, environment, data: settings });
    return { environment, type: env.type, ...settings };
  });
}

/** The settings of one environment where change requests are on, or null when they are off there. */
export async function enabledChangeRequestSettings(
  db: Kysely<Database>,
  projectId: string,
  environment: string,
): Promise<{ requiredApprovals: number } | null> {
  const row = await db
    .selectFrom("change_request_settings")
    .select("required_approvals")
    .where("project_id", "=", projectId)
    .where("environment_name", "=", environment)
    .where("enabled", "=", true)
    .executeTakeFirst();
  return row ? { requiredApprovals: row.required_approvals } : null;
}
