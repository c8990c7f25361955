import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { assertUrlSafeName } from "../features/url-safe-name.ts";
import { type Project, projectFromRow } from "./project.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

export interface NewProject {
  id: string;
  name: string;
  description?: string | null | undefined;
}

/** Creates a project with no environments enabled. */
export async function createProject(db: Kysely<Database>, by: Principal | null, input: NewProject): Promise<Project> {
  return inTransaction(db, async (trx) => {
    assertUrlSafeName(input.id, "id");
    if (input.name.trim() === "") throw new ValidationError('"name" must not be empty.', [{ path: "name", message: "must not be empty" }]);

    // ON CONFLICT rather than a prior look-up, so that two concurrent creates cannot both succeed.
    const row = await trx
      .insertInto("projects")
      .values({ id: input.id, name: input.name, description: input.description ?? null })
      .onConflict((oc) => oc.column("id").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NameExistsError(`A project with the id "${input.id}" already exists.`);

    const project = projectFromRow(row);
    await appendEvent(trx, by, { type: "project-created", project: project.id, data: project });
    return project;
  });
}
