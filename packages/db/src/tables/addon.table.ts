import type { ColumnType, Generated } from "kysely";

export interface AddonTable {
  id: Generated<number>;
  /** `webhook` or `slack` (a check constraint keeps it so). */
  provider: string;
  description: string | null;
  enabled: Generated<boolean>;
  /** The provider's parameters: JSON text on write, parsed JSON on select. */
  parameters: ColumnType<Record<string, unknown>, string, string>;
  /** Event types, project ids and environment names, JSON arrays; empty projects or environments mean all. */
  events: ColumnType<string[], string, string>;
  projects: ColumnType<string[], string, string>;
  environments: ColumnType<string[], string, string>;
  /** The HMAC-SHA256 key of the signature header (docs/webhooks.md#signature). */
  signing_secret: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface AddonDeliveryTable {
  id: Generated<number>;
  addon_id: number;
  event_id: number;
  /** `pending`, `delivered` or `failed`. */
  state: Generated<string>;
  attempts: Generated<number>;
  /** When a worker may claim it next; a claim moves it past the claim's lease. */
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  created_at: ColumnType<Date, Date | undefined, never>;
  finished_at: Date | null;
  last_status: number | null;
  last_error: string | null;
}
