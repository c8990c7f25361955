import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { FormError } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";
import { ProposedNotice } from "./proposed-notice.tsx";
import {
  draftProblems,
  newDraft,
  normalisedWeights,
  PAYLOAD_TYPES,
  percent,
  toDraft,
  toInput,
  type Variant,
  type VariantDraft,
} from "./variant-draft.ts";
import { DataTable } from "../data-table.tsx";

interface Props {
  projectId: string;
  featureName: string;
  environment: string;
  variants: Variant[];
  /** Set where change requests are on: the edit becomes a change in the user's request. */
  changeRequests: { requiredApprovals: number } | null;
}

/** The variants of one feature in one environment, with the weights the server will store shown before saving. */
export function VariantsEditor({ projectId, featureName, environment, variants, changeRequests }: Props) {
  const client = useQueryClient();
  const [drafts, setDrafts] = useState<VariantDraft[]>(() => variants.map(toDraft));
  const [proposed, setProposed] = useState<{ id: number; state: string } | null>(null);
  const problems = draftProblems(drafts);
  const weights = normalisedWeights(drafts);
  const invalid = problems.whole.length > 0 || problems.rows.some((r) => Object.keys(r).length > 0);
  const where = { projectId, featureName, environment };
  const save = useMutation({
    mutationFn: async () => {
      const input = drafts.map(toInput);
      if (!changeRequests) return { saved: await trpcClient.features.replaceVariants.mutate({ ...where, variants: input }) };
      const request = await trpcClient.changeRequests.addChange.mutate({
        projectId,
        environment,
        feature: featureName,
        action: "patchVariant",
        payload: { variants: input },
      });
      return { request };
    },
    onSuccess: (result) => {
      if (result.saved) setDrafts(result.saved.variants.map(toDraft));
      if (result.request) setProposed({ id: result.request.id, state: result.request.state });
      return Promise.all([
        client.invalidateQueries(trpc.features.get.queryFilter({ projectId, featureName })),
        client.invalidateQueries(trpc.changeRequests.pending.pathFilter()),
      ]);
    },
  });
  const edit = (i: number, change: Partial<VariantDraft>) => setDrafts((all) => all.map((d, j) => (j === i ? { ...d, ...change } : d)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProposed(null);
    save.mutate();
  };
  const label = (i: number, what: string) => `${what} of variant ${i + 1}`;
  return (
    <form onSubmit={submit} aria-label={`Variants in ${environment}`} className="variants">
      {changeRequests && (
        <p className="notice">
          Change requests are on in {environment}: saving adds this change to your change request, which needs{" "}
          {changeRequests.requiredApprovals} approval
          {changeRequests.requiredApprovals === 1 ? "" : "s"} before it is applied.
        </p>
      )}
      <DataTable
        caption={`Variants in ${environment}`}
        columns={[
          "Name",
          "Weight type",
          "Fix weight (‰)",
          "Stored weight",
          "Stickiness",
          "Payload",
          "Overrides",
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
              <td data-testid="stored-weight">{weight === null || weight === undefined ? "–" : `${weight} (${percent(weight)})`}</td>
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
              <td>{d.overrides.length ? d.overrides.map((o) => `${o.contextName}: ${o.values.join(", ")}`).join("; ") : "none"}</td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Remove variant ${i + 1}`}
                  onClick={() => setDrafts((all) => all.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </td>
            </tr>
          );
        })}
      </DataTable>
      {problems.whole.map((w) => (
        <p key={w} className="error">
          {w}
        </p>
      ))}
      <FormError error={save.error} />
      {proposed !== null && <ProposedNotice projectId={projectId} request={proposed} />}
      {save.isSuccess && proposed === null && (
        <p className="success" role="status">
          Saved.
        </p>
      )}
      <div className="row">
        <button type="button" className="secondary" onClick={() => setDrafts((all) => [...all, newDraft()])}>
          Add variant
        </button>
        <button type="submit" disabled={invalid || save.isPending}>
          {changeRequests ? "Add to my change request" : "Save variants"}
        </button>
      </div>
    </form>
  );
}
