import { type Kysely, sql } from "kysely";
import { migrations } from "../migrations/index.ts";
import type { DocumentHeader } from "./transfer-document.ts";
import { TransferRefused } from "./transfer-refused.ts";

/** The schema this Vexil migrates to: the name of its last migration. */
export const LATEST_SCHEMA = Object.keys(migrations).sort().at(-1) as string;

/** The schema a database is at: the name of the last migration applied to it. */
export async function schemaVersion(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ name: string | null }>`select max(name) as name from kysely_migration`.execute(db);
  return rows[0]?.name ?? "none";
}

/** Rows are only meaningful in the schema they were exported from. */
export function refuseOtherSchema(header: DocumentHeader, schema: string, where: string): void {
  if (header.schema !== schema) {
    throw new TransferRefused(
      `line 1: the document is of schema ${header.schema}, ${where} is at ${schema}; import with the Vexil version that exported it`,
    );
  }
}
