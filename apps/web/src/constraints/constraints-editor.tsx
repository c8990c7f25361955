import { useQuery } from "@tanstack/react-query";
import { trpc } from "../trpc.ts";
import { type ConstraintDraft, draftConstraintProblems, newConstraintDraft } from "./constraint-draft.ts";
import { OPERATORS, type Operator, operatorKind, takesValues, usesCase } from "./constraint-values.ts";

const OPERATOR_WORDS: Record<Operator, string> = {
  IN: "is one of",
  NOT_IN: "is none of",
  STR_CONTAINS: "contains",
  STR_STARTS_WITH: "starts with",
  STR_ENDS_WITH: "ends with",
  IN_CIDR: "is an address in",
  NUM_EQ: "=",
  NUM_GT: ">",
  NUM_GTE: "≥",
  NUM_LT: "<",
  NUM_LTE: "≤",
  DATE_AFTER: "is after",
  DATE_BEFORE: "is before",
  SEMVER_EQ: "version =",
  SEMVER_GT: "version >",
  SEMVER_GTE: "version ≥",
  SEMVER_LT: "version <",
  SEMVER_LTE: "version ≤",
  REGEX: "matches the pattern",
};

/** An ISO date and time as <input type="datetime-local"> shows it, in the browser's zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
}

interface Props {
  /** Unique on the page: the fields' ids start with it. */
  id: string;
  drafts: ConstraintDraft[];
  onChange: (drafts: ConstraintDraft[]) => void;
}

/**
 * Constraints, each checked as the API checks it with the error beside its field. Context fields
 * come from /api/admin/context (any other name may be typed); a field's legal values are picked.
 */
export function ConstraintsEditor({ id, drafts, onChange }: Props) {
  const fields = useQuery(trpc.contextFields.list.queryOptions());
  const problems = draftConstraintProblems(drafts);
  const edit = (i: number, change: Partial<ConstraintDraft>) => onChange(drafts.map((d, j) => (j === i ? { ...d, ...change } : d)));
  const listId = `${id}-context-fields`;
  return (
    <div className="constraints">
      <datalist id={listId}>
        {(fields.data ?? []).map((f) => (
          <option key={f.name} value={f.name}>
            {f.description ?? f.name}
          </option>
        ))}
      </datalist>
      {drafts.length === 0 && <p className="muted">No constraints: the strategy applies to every context.</p>}
      {drafts.map((d, i) => {
        const p = problems[i] ?? {};
        const legal = fields.data?.find((f) => f.name === d.contextName)?.legalValues ?? [];
        const fid = (what: string) => `${id}-${i}-${what}`;
        const error = (what: "contextName" | "values" | "value") =>
          p[what] ? (
            <span className="field-error" id={fid(`${what}-error`)}>
              {p[what]}
            </span>
          ) : null;
        const invalid = (what: "contextName" | "values" | "value") => ({
          "aria-invalid": !!p[what],
          "aria-describedby": p[what] ? fid(`${what}-error`) : undefined,
        });
        const kind = operatorKind(d.operator);
        const chosen = d.valuesText.split("\n").map((v) => v.trim());
        return (
          <fieldset key={i} className="constraint">
            <legend>Constraint {i + 1}</legend>
            <div className="row">
              <label htmlFor={fid("field")}>
                Context field
                <input
                  id={fid("field")}
                  list={listId}
                  value={d.contextName}
                  onChange={(e) => edit(i, { contextName: e.target.value })}
                  {...invalid("contextName")}
                />
                {error("contextName")}
              </label>
              <label htmlFor={fid("operator")}>
                Operator
                <select id={fid("operator")} value={d.operator} onChange={(e) => edit(i, { operator: e.target.value as Operator })}>
                  {OPERATORS.map((o) => (
                    <option key={o} value={o}>
                      {`${o} (${OPERATOR_WORDS[o]})`}
                    </option>
                  ))}
                </select>
              </label>
              <label className="check" htmlFor={fid("inverted")}>
                <input
                  id={fid("inverted")}
                  type="checkbox"
                  checked={d.inverted}
                  onChange={(e) => edit(i, { inverted: e.target.checked })}
                />
                Inverted (NOT)
              </label>
              {usesCase(d.operator) && (
                <label className="check" htmlFor={fid("case")}>
                  <input
                    id={fid("case")}
                    type="checkbox"
                    checked={d.caseInsensitive}
                    onChange={(e) => edit(i, { caseInsensitive: e.target.checked })}
                  />
                  Case-insensitive
                </label>
              )}
              <button type="button" className="secondary" onClick={() => onChange(drafts.filter((_, j) => j !== i))}>
                Remove constraint {i + 1}
              </button>
            </div>
            {takesValues(d.operator) && legal.length > 0 && (
              <fieldset className="legal-values" aria-describedby={p.values ? fid("values-error") : undefined}>
                <legend>Values of {d.contextName}</legend>
                {legal.map((l) => (
                  <label key={l.value} className="check">
                    <input
                      type="checkbox"
                      checked={chosen.includes(l.value)}
                      onChange={(e) =>
                        edit(i, {
                          valuesText: (e.target.checked ? [...chosen, l.value] : chosen.filter((v) => v !== l.value))
                            .filter((v) => v !== "")
                            .join("\n"),
                        })
                      }
                    />
                    {l.value}
                    {l.description && <span className="muted"> ({l.description})</span>}
                  </label>
                ))}
                {error("values")}
              </fieldset>
            )}
            {takesValues(d.operator) && legal.length === 0 && (
              <label htmlFor={fid("values")}>
                {kind === "cidr" ? "Addresses or CIDR ranges (one per line)" : "Values (one per line)"}
                <textarea
                  id={fid("values")}
                  rows={Math.min(6, Math.max(2, chosen.length))}
                  value={d.valuesText}
                  onChange={(e) => edit(i, { valuesText: e.target.value })}
                  {...invalid("values")}
                />
                {error("values")}
              </label>
            )}
            {kind === "date" && (
              <label htmlFor={fid("value")}>
                Date and time
                <input
                  id={fid("value")}
                  type="datetime-local"
                  step={1}
                  value={toLocalInput(d.value)}
                  onChange={(e) => edit(i, { value: e.target.value ? new Date(e.target.value).toISOString() : "" })}
                  {...invalid("value")}
                />
                <output htmlFor={fid("value")}>{d.value ? `Sent as ${d.value}` : "No date chosen"}</output>
                {error("value")}
              </label>
            )}
            {!takesValues(d.operator) && kind !== "date" && (
              <label htmlFor={fid("value")}>
                {kind === "number" ? "Number" : kind === "semver" ? "Version" : "Pattern"}
                <input
                  id={fid("value")}
                  inputMode={kind === "number" ? "decimal" : undefined}
                  list={legal.length > 0 ? `${fid("legal")}` : undefined}
                  value={d.value}
                  onChange={(e) => edit(i, { value: e.target.value })}
                  {...invalid("value")}
                />
                {legal.length > 0 && (
                  <datalist id={fid("legal")}>
                    {legal.map((l) => (
                      <option key={l.value} value={l.value} />
                    ))}
                  </datalist>
                )}
                {error("value")}
              </label>
            )}
          </fieldset>
        );
      })}
      <button
        type="button"
        className="secondary"
        onClick={() => onChange([...drafts, newConstraintDraft()])}
        disabled={drafts.length >= 100}
      >
        Add constraint
      </button>
    </div>
  );
}
