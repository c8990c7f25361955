import type { ColumnType } from "kysely";

/** The child is evaluated only when its parent is (or, with enabled false, is not) on. */
export interface FeatureDependencyTable {
  child: string;
  parent: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** Variant names of the parent, one of which it must give; JSON text on insert. */
  variants: ColumnType<unknown, string | undefined, string>;
}
