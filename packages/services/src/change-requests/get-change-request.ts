import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { type ChangeRequestView, loadChangeRequests } from "./change-request.ts";
import { requireChangeRequest } from "./require-change-request.ts";

/** The change request `id` of a project, or a NotFoundError that says whether the project or the request is missing. */
export async function getChangeRequest(db: Kysely<Database>, reader: Principal, projectId: string, id: number): Promise<ChangeRequestView> {
  await requireChangeRequest(db, projectId, id);
  return changeRequestView(db, id, reader);
}

/** A change request known to exist, as the API shows it to `reader` (with the moves it may make). */
export async function changeRequestView(db: Kysely<Database>, id: number, reader: Principal): Promise<ChangeRequestView> {
  const [view] = await loadChangeRequests(db, [id], reader);
  if (!view) throw new Error(`The change request ${id} was read but is not there.`);
  return view;
}
