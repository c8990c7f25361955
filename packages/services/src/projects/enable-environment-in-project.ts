import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError, NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "./require-project.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

/** Makes an existing environment usable by a project's features. */
export async function enableEnvironmentInProject(
  db: Kysely<Database>,
  by: Principal | null,
  input: { projectId: string; environment: string },
): Promise<void> {
  return inTransaction(db, async (trx) => {
    await requireProject(trx, input.projectId);
    const environment = await trx.selectFrom("environments").select("name").where("name", "=", input.environment).executeTakeFirst();
    if (!environment) throw new NotFoundError(`The environment "${input.environment}" does not exist.`);

    const added = await trx
      .insertInto("project_environments")
      .values({ project_id: input.projectId, environment_name: input.environment })
      .onConflict((oc) => oc.columns(["project_id", "environment_name"]).doNothing())
      .returning("environment_name")
      .executeTakeFirst();
    if (!added) {
      throw new NameExistsError(`The environment "${input.environment}" is already enabled in the project "${input.projectId}".`);
    }
    await appendEvent(trx, by, {
      type: "project-environment-added",
      project: input.projectId,
      environment: input.environment,
      data: { projectId: input.projectId, environment: input.environment },
    });
  });
}
