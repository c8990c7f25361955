import { type QueryFilters, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { SubmitRow } from "./form-error.tsx";

interface Field {
  name: string;
  label: string;
  required?: boolean;
}

/** A one-line form that creates something from a few text fields, then empties itself and refreshes the queries `refresh` matches. */
export function CreateForm(props: {
  title: string;
  fields: Field[];
  submitLabel: string;
  refresh: QueryFilters;
  create(values: Record<string, string>): Promise<unknown>;
}) {
  const client = useQueryClient();
  const empty = () => Object.fromEntries(props.fields.map((f) => [f.name, ""]));
  const [values, setValues] = useState<Record<string, string>>(empty);
  const create = useMutation({
    mutationFn: () => props.create(values),
    onSuccess: () => {
      setValues(empty());
      return client.invalidateQueries(props.refresh);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card row" onSubmit={submit} aria-label={props.title}>
      {props.fields.map((f) => (
        <label key={f.name}>
          {f.label}
          <input
            required={f.required}
            value={values[f.name] ?? ""}
            onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
          />
        </label>
      ))}
      <SubmitRow label={props.submitLabel} busy={create.isPending} error={create.error} />
    </form>
  );
}
