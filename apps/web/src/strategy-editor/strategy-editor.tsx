import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { type ConstraintDraft, anyConstraintProblem, toConstraint, toConstraintDraft } from "../constraints/constraint-draft.ts";
import { ConstraintsEditor } from "../constraints/constraints-editor.tsx";
import { FormError } from "../form-error.tsx";
import type { FeatureStrategy } from "../features/describe-strategy.ts";
import { ProposedNotice } from "../features/proposed-notice.tsx";
import { useStrategyWrite } from "../features/use-strategy-write.ts";
import { draftProblems, newDraft, type VariantDraft } from "../features/variant-draft.ts";
import { trpc } from "../trpc.ts";
import { StrategyVariants } from "./strategy-variants.tsx";

const PERCENTAGE = /^(100|[1-9]?\d)$/;
const STICKINESS = ["default", "userId", "sessionId", "random"];

interface Props {
  projectId: string;
  featureName: string;
  environment: string;
  changeRequests: boolean;
  /** The strategy to edit; without it, a new one. */
  strategy?: FeatureStrategy;
  onDone: () => void;
}

const variantDraft = (v: FeatureStrategy["variants"][number]): VariantDraft => ({
  name: v.name,
  weightType: v.weightType,
  weight: String(v.weight),
  stickiness: v.stickiness,
  payloadType: (v.payload?.type as VariantDraft["payloadType"]) ?? "",
  payloadValue: v.payload?.value ?? "",
  overrides: [],
});

const variantInput = (d: VariantDraft) => ({
  name: d.name,
  weightType: d.weightType,
  ...(d.weightType === "fix" ? { weight: Number(d.weight) } : {}),
  stickiness: d.stickiness,
  ...(d.payloadType ? { payload: { type: d.payloadType, value: d.payloadValue } } : {}),
});

/**
 * Every part of a strategy: its type (built-in or custom, with the type's declared parameters),
 * title, constraints, segments by name and variants. Saves it directly, or where change requests
 * are on adds it to the user's change request.
 */
export default function StrategyEditor({ projectId, featureName, environment, changeRequests, strategy, onDone }: Props) {
  const types = useQuery(trpc.strategyTypes.list.queryOptions());
  const segments = useQuery(trpc.segments.list.queryOptions());
  const fields = useQuery(trpc.contextFields.list.queryOptions());
  const [name, setName] = useState(strategy?.name ?? "flexibleRollout");
  const [title, setTitle] = useState(strategy?.title ?? "");
  const [disabled, setDisabled] = useState(strategy?.disabled ?? false);
  const [parameters, setParameters] = useState<Record<string, string>>(
    strategy?.parameters ?? { rollout: "100", stickiness: "default", groupId: featureName },
  );
  const [constraints, setConstraints] = useState<ConstraintDraft[]>(() => (strategy?.constraints ?? []).map(toConstraintDraft));
  const [segmentIds, setSegmentIds] = useState<number[]>(strategy?.segments ?? []);
  const [variants, setVariants] = useState<VariantDraft[]>(() => (strategy?.variants ?? []).map(variantDraft));
  const write = useStrategyWrite({ projectId, featureName, environment }, changeRequests);

  const type = types.data?.strategies.find((t) => t.name === name);
  const stickiness = [...new Set([...STICKINESS, ...(fields.data ?? []).filter((f) => f.stickiness).map((f) => f.name)])];
  const usable = (segments.data?.segments ?? []).filter((s) => s.project === null || s.project === projectId);
  const parameterProblems = Object.fromEntries(
    (type?.parameters ?? [])
      .filter((p) => p.type === "percentage" && !PERCENTAGE.test(parameters[p.name] ?? ""))
      .map((p) => [p.name, "A whole number from 0 to 100."]),
  );
  const variantProblems = draftProblems(variants);
  const invalid =
    !type ||
    Object.keys(parameterProblems).length > 0 ||
    anyConstraintProblem(constraints) ||
    variantProblems.whole.length > 0 ||
    variantProblems.rows.some((r) => Object.keys(r).length > 0);

  const chooseType = (next: string) => {
    setName(next);
    const declared = types.data?.strategies.find((t) => t.name === next)?.parameters ?? [];
    setParameters(
      Object.fromEntries(
        declared.map((p) => [
          p.name,
          parameters[p.name] ??
            (p.name === "rollout" ? "100" : p.name === "stickiness" ? "default" : p.name === "groupId" ? featureName : ""),
        ]),
      ),
    );
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (invalid) return;
    const body = {
      name,
      title: title.trim() || null,
      disabled,
      constraints: constraints.map(toConstraint),
      // Only the type's declared parameters, without empty optional ones.
      parameters: Object.fromEntries(
        Object.entries(parameters).filter(([key, value]) => value !== "" && (type?.parameters ?? []).some((p) => p.name === key)),
      ),
      segments: segmentIds,
      variants: variants.map(variantInput),
      ...(strategy ? { sortOrder: strategy.sortOrder } : {}),
    };
    write.mutate(strategy ? { action: "updateStrategy", id: strategy.id, strategy: body } : { action: "addStrategy", strategy: body }, {
      onSuccess: (result) => {
        if (!result.request) onDone();
      },
    });
  };
  const id = (what: string) => `strategy-${environment}-${strategy?.id ?? "new"}-${what}`;
  const what = strategy
    ? `Edit strategy ${strategy.title ?? strategy.name} in ${environment}`
    : `New strategy with every option in ${environment}`;
  return (
    <form onSubmit={submit} aria-label={what} className="strategy-editor card">
      <div className="row">
        <label htmlFor={id("type")}>
          Strategy type
          <select id={id("type")} value={name} onChange={(e) => chooseType(e.target.value)}>
            {(types.data?.strategies ?? []).map((t) => (
              <option key={t.name} value={t.name}>
                {`${t.displayName ?? t.name}${t.editable ? " (custom)" : ""}${t.deprecated ? " (deprecated)" : ""}`}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={id("title")}>
          Title (optional)
          <input id={id("title")} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={255} />
        </label>
        <label className="check" htmlFor={id("disabled")}>
          <input id={id("disabled")} type="checkbox" checked={disabled} onChange={(e) => setDisabled(e.target.checked)} />
          Disabled
        </label>
      </div>
      {type?.description && <p className="muted">{type.description}</p>}
      {(type?.parameters.length ?? 0) > 0 && (
        <fieldset>
          <legend>Parameters</legend>
          <div className="row">
            {type?.parameters.map((p) => {
              const pid = id(`parameter-${p.name}`);
              const value = parameters[p.name] ?? "";
              const set = (v: string) => setParameters((all) => ({ ...all, [p.name]: v }));
              const problem = parameterProblems[p.name];
              const label = p.type === "percentage" ? `${p.name} (%)` : p.type === "list" ? `${p.name} (comma-separated)` : p.name;
              if (p.type === "boolean") {
                return (
                  <label key={p.name} className="check" htmlFor={pid}>
                    <input id={pid} type="checkbox" checked={value === "true"} onChange={(e) => set(String(e.target.checked))} />
                    {p.name}
                  </label>
                );
              }
              return (
                <label key={p.name} htmlFor={pid}>
                  {label}
                  {p.name === "stickiness" && name === "flexibleRollout" ? (
                    <select id={pid} value={value} onChange={(e) => set(e.target.value)}>
                      {[...new Set([...stickiness, value])].filter(Boolean).map((s) => (
                        <option key={s}>{s}</option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={pid}
                      value={value}
                      inputMode={p.type === "percentage" || p.type === "number" ? "numeric" : undefined}
                      aria-invalid={!!problem}
                      aria-describedby={problem ? `${pid}-error` : p.description ? `${pid}-help` : undefined}
                      onChange={(e) => set(e.target.value)}
                    />
                  )}
                  {problem ? (
                    <span className="field-error" id={`${pid}-error`}>
                      {problem}
                    </span>
                  ) : (
                    p.description && (
                      <span className="muted help" id={`${pid}-help`}>
                        {p.description}
                      </span>
                    )
                  )}
                </label>
              );
            })}
          </div>
        </fieldset>
      )}
      <fieldset>
        <legend>Constraints</legend>
        <ConstraintsEditor id={id("constraints")} drafts={constraints} onChange={setConstraints} />
      </fieldset>
      <fieldset>
        <legend>Segments</legend>
        {usable.length === 0 && <p className="muted">No segments can be used in {projectId}.</p>}
        {usable.map((s) => (
          <label key={s.id} className="check">
            <input
              type="checkbox"
              checked={segmentIds.includes(s.id)}
              onChange={(e) => setSegmentIds((all) => (e.target.checked ? [...all, s.id] : all.filter((x) => x !== s.id)))}
            />
            {s.name}
            {s.description && <span className="muted"> ({s.description})</span>}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Variants</legend>
        <StrategyVariants id={id("variants")} drafts={variants} onChange={setVariants} />
        <button type="button" className="secondary" onClick={() => setVariants((all) => [...all, newDraft()])}>
          Add strategy variant
        </button>
      </fieldset>
      <FormError error={write.error} />
      {write.data?.request && <ProposedNotice projectId={projectId} request={write.data.request} />}
      <div className="row">
        <button type="submit" disabled={invalid || write.isPending}>
          {changeRequests ? "Add to my change request" : strategy ? "Save strategy" : "Add strategy"}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {write.data?.request ? "Close" : "Cancel"}
        </button>
      </div>
    </form>
  );
}
