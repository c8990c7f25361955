import { DataDirInUse, isDatabaseUnavailable, TransferRefused } from "@vexil/db";
import { DomainError } from "@vexil/services";
import { ConfigError } from "../config.ts";
import { UnleashUnreachable } from "./unleash-migration/unleash-admin-client.ts";

/** What a person reads when a command failed: their own problem in a sentence, or a bug to report. */
export function failureMessage(name: string, error: unknown): string {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirInUse ||
    error instanceof TransferRefused ||
    error instanceof UnleashUnreachable
  )
    return `${name}: ${error.message}`;
  // Refused by a business rule (a taken name, a short password): the message is for a person.
  if (error instanceof DomainError) return `${name}: ${error.message}`;
  if (isDatabaseUnavailable(error)) return `${name}: cannot reach the database: ${(error as Error).message}`;
  return `${name} failed unexpectedly (a bug; please report it): ${error instanceof Error ? error.stack : String(error)}`;
}
