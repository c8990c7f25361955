import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { ValidationError } from "../errors/domain-error.ts";

export const BANNER_VARIANTS = ["info", "warning", "error", "success"] as const;
type BannerVariant = (typeof BANNER_VARIANTS)[number];

/** A banner shown to all users. `message` and `dialog` are markdown that clients render. */
export interface Banner {
  id: number;
  message: string;
  enabled: boolean;
  variant: BannerVariant;
  sticky: boolean;
  /** An icon name; `"none"` shows no icon and null the variant's default icon. */
  icon: string | null;
  /** `"dialog"` makes a click open the dialog. */
  link: string | null;
  linkText: string | null;
  dialogTitle: string | null;
  dialog: string | null;
  createdAt: Date;
}

/** The editable fields: every one but `message` may be left out. */
export interface BannerFields {
  message: string;
  enabled?: boolean | undefined;
  variant?: BannerVariant | undefined;
  sticky?: boolean | undefined;
  icon?: string | null | undefined;
  link?: string | null | undefined;
  linkText?: string | null | undefined;
  dialogTitle?: string | null | undefined;
  dialog?: string | null | undefined;
}

/** The one place where a stored row becomes a Banner. */
export function bannerFromRow(row: Selectable<Database["banners"]>): Banner {
  return {
    id: row.id,
    message: row.message,
    enabled: row.enabled,
    variant: row.variant as BannerVariant,
    sticky: row.sticky,
    icon: row.icon,
    link: row.link,
    linkText: row.link_text,
    dialogTitle: row.dialog_title,
    dialog: row.dialog,
    createdAt: row.created_at,
  };
}

/**
 * The rules every stored banner keeps, checked here as well as at the edge so that no caller of
 * the service can store a banner the API would refuse. A message of only white space shows an
 * empty banner, so it counts as empty; a valid message is still stored exactly as given.
 */
export function assertValidBannerFields(fields: Partial<BannerFields>): void {
  const details = [];
  if (fields.message !== undefined && (typeof fields.message !== "string" || fields.message.trim() === "")) {
    details.push({ path: "message", message: "must not be empty" });
  }
  if (fields.variant !== undefined && !BANNER_VARIANTS.includes(fields.variant)) {
    details.push({ path: "variant", message: `must be one of ${BANNER_VARIANTS.join(", ")}` });
  }
  if (details.length > 0) {
    throw new ValidationError(`Invalid banner: ${details.map((d) => `${d.path} ${d.message}`).join("; ")}.`, details);
  }
}
