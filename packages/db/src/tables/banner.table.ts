import type { ColumnType, Generated } from "kysely";

export interface BannerTable {
  id: Generated<number>;
  /** Markdown, stored exactly as given: clients render it. */
  message: string;
  enabled: Generated<boolean>;
  /** One of info, warning, error, success (a check constraint keeps it so). */
  variant: Generated<string>;
  sticky: Generated<boolean>;
  icon: string | null;
  link: string | null;
  link_text: string | null;
  dialog_title: string | null;
  dialog: string | null;
  /** Set once, at creation, by the insert; never updated. */
  created_at: ColumnType<Date, Date | undefined, never>;
}
