import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { anyConstraintProblem, type ConstraintDraft, toConstraint, toConstraintDraft } from "../constraints/constraint-draft.ts";
import { ConstraintsEditor } from "../constraints/constraints-editor.tsx";
import { SubmitRow } from "../form-error.tsx";
import { type RouterInputs, type RouterOutputs, trpc } from "../trpc.ts";

export type Segment = RouterOutputs["segments"]["list"]["segments"][number];
export type SegmentBody = RouterInputs["segments"]["create"];

interface Props {
  initial?: Segment;
  busy: boolean;
  error: unknown;
  onSave: (body: SegmentBody) => void;
  onCancel?: () => void;
}

/** A segment's name, description, project and constraints, checked as the API checks them. */
export function SegmentForm({ initial, busy, error, onSave, onCancel }: Props) {
  const projects = useQuery(trpc.projects.list.queryOptions());
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [project, setProject] = useState(initial?.project ?? "");
  const [constraints, setConstraints] = useState<ConstraintDraft[]>(() => (initial?.constraints ?? []).map(toConstraintDraft));
  const nameProblem = name.trim().length < 1 || name.length > 100 ? "1-100 characters" : null;
  const invalid = !!nameProblem || description.length > 1000 || anyConstraintProblem(constraints);
  const id = (what: string) => `segment-${initial?.id ?? "new"}-${what}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (invalid) return;
    onSave({
      name: name.trim(),
      description: description.trim() || null,
      project: project || null,
      constraints: constraints.map(toConstraint),
    });
  };
  return (
    <form onSubmit={submit} aria-label={initial ? `Edit segment ${initial.name}` : "New segment"} className="card segment-form">
      <h2>{initial ? `Edit segment ${initial.name}` : "New segment"}</h2>
      <div className="row">
        <label htmlFor={id("name")}>
          Name
          <input
            id={id("name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={!!nameProblem}
            aria-describedby={nameProblem ? id("name-error") : undefined}
            maxLength={100}
          />
          {nameProblem && (
            <span className="field-error" id={id("name-error")}>
              {nameProblem}
            </span>
          )}
        </label>
        <label htmlFor={id("description")}>
          Description (optional)
          <input id={id("description")} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} />
        </label>
        <label htmlFor={id("project")}>
          Project
          <select id={id("project")} value={project} onChange={(e) => setProject(e.target.value)}>
            <option value="">Every project</option>
            {(projects.data?.projects ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset>
        <legend>Constraints</legend>
        <ConstraintsEditor id={id("constraints")} drafts={constraints} onChange={setConstraints} />
      </fieldset>
      <div className="row">
        <SubmitRow label={initial ? "Save segment" : "Create segment"} busy={busy || invalid} error={error} />
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
