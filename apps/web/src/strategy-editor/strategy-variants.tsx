import { DataTable } from "../data-table.tsx";
import { draftProblems, normalisedWeights, PAYLOAD_TYPES, percent, type VariantDraft } from "../features/variant-draft.ts";

/** A strategy's variants: the variants editor's rows without overrides, with the weights the server will store. */
export function StrategyVariants({
  id,
  drafts,
  onChange,
}: {
  id: string;
  drafts: VariantDraft[];
  onChange: (drafts: VariantDraft[]) => void;
}) {
  const problems = draftProblems(drafts);
  const weights = normalisedWeights(drafts);
  const edit = (i: number, change: Partial<VariantDraft>) => onChange(drafts.map((d, j) => (j === i ? { ...d, ...change } : d)));
  const label = (i: number, what: string) => `${what} of strategy variant ${i + 1}`;
  return (
    <div className="strategy-variants" id={id}>
      {drafts.length > 0 && (
        <DataTable
          caption="Strategy variants"
          columns={[
            "Name",
            "Weight type",
            "Fix weight (‰)",
            "Stored weight",
            "Stickiness",
            "Payload",
            <span className="visually-hidden">Remove</span>,
          ]}
        >
          {drafts.map((d, i) => {
            const p = problems.rows[i] ?? {};
            const weight = weights[i];
            return (
              <tr key={i}>
                <td>
                  <input
                    aria-label={label(i, "Name")}
                    aria-invalid={!!p.name}
                    value={d.name}
                    onChange={(e) => edit(i, { name: e.target.value })}
                  />
                  {p.name && <span className="field-error">{p.name}</span>}
                </td>
                <td>
                  <select
                    aria-label={label(i, "Weight type")}
                    value={d.weightType}
                    onChange={(e) => edit(i, { weightType: e.target.value as VariantDraft["weightType"] })}
                  >
                    <option value="variable">variable</option>
                    <option value="fix">fix</option>
                  </select>
                </td>
                <td>
                  <input
                    aria-label={label(i, "Fix weight")}
                    aria-invalid={!!p.weight}
                    inputMode="numeric"
                    disabled={d.weightType !== "fix"}
                    value={d.weightType === "fix" ? d.weight : ""}
                    onChange={(e) => edit(i, { weight: e.target.value })}
                    size={5}
                  />
                  {p.weight && <span className="field-error">{p.weight}</span>}
                </td>
                <td>{weight === null || weight === undefined ? "–" : `${weight} (${percent(weight)})`}</td>
                <td>
                  <input
                    aria-label={label(i, "Stickiness")}
                    value={d.stickiness}
                    onChange={(e) => edit(i, { stickiness: e.target.value })}
                    size={8}
                  />
                  {p.stickiness && <span className="field-error">{p.stickiness}</span>}
                </td>
                <td>
                  <select
                    aria-label={label(i, "Payload type")}
                    value={d.payloadType}
                    onChange={(e) => edit(i, { payloadType: e.target.value as VariantDraft["payloadType"] })}
                  >
                    <option value="">none</option>
                    {PAYLOAD_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                  {d.payloadType && (
                    <input
                      aria-label={label(i, "Payload value")}
                      aria-invalid={!!p.payload}
                      value={d.payloadValue}
                      onChange={(e) => edit(i, { payloadValue: e.target.value })}
                    />
                  )}
                  {p.payload && <span className="field-error">{p.payload}</span>}
                </td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Remove strategy variant ${i + 1}`}
                    onClick={() => onChange(drafts.filter((_, j) => j !== i))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {problems.whole.map((w) => (
        <p key={w} className="error">
          {w}
        </p>
      ))}
    </div>
  );
}
