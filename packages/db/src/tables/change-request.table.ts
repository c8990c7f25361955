import type { ColumnType, Generated } from "kysely";

/** Whether an environment of a project requires change requests, and how many approvals. */
export interface ChangeRequestSettingTable {
  project_id: string;
  environment_name: string;
  enabled: boolean;
  required_approvals: number;
}

export interface ChangeRequestTable {
  id: Generated<number>;
  project_id: string;
  environment_name: string;
  title: string | null;
  /** Draft, In review, Approved, Applied, Cancelled, Rejected or Scheduled. */
  state: string;
  created_by_user_id: number;
  min_approvals: number;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: Date;
  scheduled_at: Date | null;
  /** pending, failed or suspended, while Scheduled. */
  schedule_status: string | null;
  schedule_reason: string | null;
  /** Scheduled applies that met a transient failure so far. */
  schedule_attempts: ColumnType<number, number | undefined, number>;
  /** When the scheduler may try again after a transient failure; null: as soon as it is due. */
  schedule_retry_at: Date | null;
}

export interface ChangeRequestChangeTable {
  id: Generated<number>;
  change_request_id: number;
  feature_name: string;
  action: string;
  payload: ColumnType<unknown, string, string>;
  created_by_user_id: number;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** Approvals, rejections and comments share one shape: who, when, what they said. */
export interface ChangeRequestReviewTable {
  id: Generated<number>;
  change_request_id: number;
  /** approval, rejection or comment. */
  kind: string;
  user_id: number;
  text: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
