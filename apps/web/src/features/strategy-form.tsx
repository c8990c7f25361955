import { useState, type FormEvent } from "react";
import { FormError } from "../form-error.tsx";
import { ProposedNotice } from "./proposed-notice.tsx";
import { useStrategyWrite, type StrategyBody } from "./use-strategy-write.ts";

const STICKINESS = ["default", "userId", "sessionId", "random"];
const PERCENTAGE = /^(100|[1-9]?\d)$/;

interface Props {
  projectId: string;
  featureName: string;
  environment: string;
  changeRequests: boolean;
}

/** Adds a standard or gradual-rollout strategy to one environment, or proposes it where change requests are on. */
export function StrategyForm({ projectId, featureName, environment, changeRequests }: Props) {
  const [name, setName] = useState<"default" | "flexibleRollout">("default");
  const [title, setTitle] = useState("");
  const [rollout, setRollout] = useState("100");
  const [stickiness, setStickiness] = useState("default");
  const [groupId, setGroupId] = useState(featureName);
  const add = useStrategyWrite({ projectId, featureName, environment }, changeRequests);
  const rolloutProblem = name === "flexibleRollout" && !PERCENTAGE.test(rollout) ? "A whole number from 0 to 100." : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const strategy: StrategyBody = {
      name,
      title: title.trim() || null,
      parameters: name === "flexibleRollout" ? { rollout, stickiness, groupId } : {},
    };
    add.mutate({ action: "addStrategy", strategy });
  };
  const id = (field: string) => `strategy-${environment}-${field}`;
  return (
    <form onSubmit={submit} aria-label={`New strategy in ${environment}`} className="strategy-form">
      <div className="row">
        <label htmlFor={id("name")}>
          Strategy
          <select id={id("name")} value={name} onChange={(e) => setName(e.target.value as typeof name)}>
            <option value="default">Standard: on for everyone</option>
            <option value="flexibleRollout">Gradual rollout</option>
          </select>
        </label>
        <label htmlFor={id("title")}>
          Title (optional)
          <input id={id("title")} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={255} />
        </label>
        {name === "flexibleRollout" && (
          <>
            <label htmlFor={id("rollout")}>
              Rollout (%)
              <input
                id={id("rollout")}
                inputMode="numeric"
                size={4}
                value={rollout}
                aria-invalid={!!rolloutProblem}
                onChange={(e) => setRollout(e.target.value)}
              />
              {rolloutProblem && <span className="field-error">{rolloutProblem}</span>}
            </label>
            <label htmlFor={id("stickiness")}>
              Stickiness
              <select id={id("stickiness")} value={stickiness} onChange={(e) => setStickiness(e.target.value)}>
                {STICKINESS.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            <label htmlFor={id("group")}>
              Group id
              <input id={id("group")} value={groupId} onChange={(e) => setGroupId(e.target.value)} />
            </label>
          </>
        )}
        <button type="submit" disabled={!!rolloutProblem || add.isPending}>
          {changeRequests ? "Add strategy to my change request" : "Add strategy"}
        </button>
      </div>
      <FormError error={add.error} />
      {add.data?.request && <ProposedNotice projectId={projectId} request={add.data.request} />}
    </form>
  );
}
