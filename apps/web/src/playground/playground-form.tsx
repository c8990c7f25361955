import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { SubmitRow } from "../form-error.tsx";
import { type RouterInputs, trpc } from "../trpc.ts";

export type PlaygroundRequest = RouterInputs["playground"]["evaluate"];

/** The SDK's own fields; every other context field is sent among the properties. */
const TOP_LEVEL = new Set(["userId", "sessionId", "remoteAddress", "appName", "environment", "currentTime"]);

/** The request the form's values make: empty fields are left out, a time is sent as an ISO date. */
function requestOf(environment: string, project: string, values: Record<string, string>): PlaygroundRequest {
  const context: Record<string, string> = {};
  const properties: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === "") continue;
    const text = name === "currentTime" ? new Date(value).toISOString() : value;
    if (TOP_LEVEL.has(name)) context[name] = text;
    else properties[name] = text;
  }
  return {
    environment,
    projects: project === "" ? "*" : [project],
    context: { appName: "playground", ...context, ...(Object.keys(properties).length ? { properties } : {}) },
  };
}

/** The environment, the projects and a value for each context field the server knows (`/api/admin/context`). */
export function PlaygroundForm({ busy, error, onSubmit }: { busy: boolean; error: unknown; onSubmit: (r: PlaygroundRequest) => void }) {
  const environments = useQuery(trpc.environments.list.queryOptions());
  const projects = useQuery(trpc.projects.list.queryOptions());
  const fields = useQuery(trpc.contextFields.list.queryOptions());
  const [environment, setEnvironment] = useState("");
  const [project, setProject] = useState("");
  const [values, setValues] = useState<Record<string, string>>({ appName: "playground" });
  const chosenEnvironment = environment || environments.data?.environments[0]?.name || "";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(requestOf(chosenEnvironment, project, values));
  };
  const set = (name: string) => (value: string) => setValues((old) => ({ ...old, [name]: value }));
  return (
    <form className="card" aria-label="Context" onSubmit={submit}>
      <div className="row">
        <label>
          Evaluate in environment
          <select value={chosenEnvironment} onChange={(e) => setEnvironment(e.target.value)}>
            {(environments.data?.environments ?? []).map((env) => (
              <option key={env.name} value={env.name}>
                {env.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Projects
          <select value={project} onChange={(e) => setProject(e.target.value)}>
            <option value="">All projects</option>
            {(projects.data?.projects ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset>
        <legend>Context</legend>
        <div className="row">
          {(fields.data ?? []).map((field) => (
            <ContextInput key={field.name} field={field} value={values[field.name] ?? ""} onChange={set(field.name)} />
          ))}
        </div>
      </fieldset>
      <SubmitRow label="Evaluate" busy={busy} error={error} />
    </form>
  );
}

type Field = { name: string; description: string | null; legalValues: { value: string; description?: string }[] };

/** One context field: its legal values to pick from where it has some, a date-time picker for the time, else text. */
function ContextInput({ field, value, onChange }: { field: Field; value: string; onChange: (value: string) => void }) {
  if (field.legalValues.length > 0) {
    return (
      <label>
        {field.name}
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">(none)</option>
          {field.legalValues.map((legal) => (
            <option key={legal.value} value={legal.value}>
              {legal.value}
              {legal.description ? `: ${legal.description}` : ""}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const isTime = field.name === "currentTime";
  return (
    <label title={field.description ?? undefined}>
      {field.name}
      <input
        type={isTime ? "datetime-local" : "text"}
        required={field.name === "appName"}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
