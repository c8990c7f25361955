import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { DataTable } from "../data-table.tsx";
import { describeConstraint } from "../features/describe-strategy.ts";
import { FormError } from "../form-error.tsx";
import { isEditor, useSessionUser } from "../session.ts";
import { trpc, trpcClient } from "../trpc.ts";
import { type Segment, type SegmentBody, SegmentForm } from "./segment-form.tsx";
import { SegmentUse } from "./segment-use.tsx";

/** Segments: shared constraints. Everyone reads them; Editors and Admins create, edit and delete unused ones. */
export default function SegmentsPage() {
  const user = useSessionUser();
  const client = useQueryClient();
  const segments = useQuery(trpc.segments.list.queryOptions());
  const [editing, setEditing] = useState<Segment | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [refused, setRefused] = useState<Segment | null>(null);
  const refresh = () => client.invalidateQueries(trpc.segments.pathFilter());
  const create = useMutation({
    mutationFn: (body: SegmentBody) => trpcClient.segments.create.mutate(body),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      return refresh();
    },
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: SegmentBody }) => trpcClient.segments.update.mutate({ id, ...body }),
    onSuccess: () => {
      setEditing(null);
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (s: Segment) => trpcClient.segments.delete.mutate({ id: s.id }),
    onMutate: () => setRefused(null),
    onSuccess: refresh,
    onError: (_, s) => setRefused(s),
  });
  const editor = isEditor(user);
  return (
    <>
      <h1>Segments</h1>
      <p className="muted">
        A segment is a set of constraints that strategies share: every one of them must hold wherever the segment is used.
      </p>
      {editor &&
        (editing ? (
          <SegmentForm
            key={`edit-${editing.id}`}
            initial={editing}
            busy={update.isPending}
            error={update.error}
            onSave={(body) => update.mutate({ id: editing.id, body })}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <SegmentForm key={formKey} busy={create.isPending} error={create.error} onSave={(body) => create.mutate(body)} />
        ))}
      <FormError error={segments.error} />
      {remove.error && refused && (
        <div className="card" role="alert" aria-labelledby="refused-delete">
          <h2 id="refused-delete">Segment {refused.name} was not deleted</h2>
          <FormError error={remove.error} />
          <SegmentUse id={refused.id} />
        </div>
      )}
      <DataTable
        caption="All segments"
        columns={["Name", "Project", "Constraints", ...(editor ? ["Actions"] : [])]}
        busy={segments.isPending}
      >
        {segments.data?.segments.map((s) => (
          <tr key={s.id}>
            <td>
              {s.name}
              {s.description && <div className="muted">{s.description}</div>}
            </td>
            <td>{s.project ? <Link href={`/projects/${encodeURIComponent(s.project)}`}>{s.project}</Link> : "every project"}</td>
            <td>
              {s.constraints.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                <ul>
                  {s.constraints.map((c, i) => (
                    <li key={i}>
                      <code>{describeConstraint(c)}</code>
                    </li>
                  ))}
                </ul>
              )}
            </td>
            {editor && (
              <td className="actions">
                <button type="button" className="secondary" onClick={() => setEditing(s)} aria-label={`Edit segment ${s.name}`}>
                  Edit
                </button>
                <button
                  type="button"
                  className="danger"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(s)}
                  aria-label={`Delete segment ${s.name}`}
                >
                  Delete
                </button>
              </td>
            )}
          </tr>
        ))}
      </DataTable>
    </>
  );
}
