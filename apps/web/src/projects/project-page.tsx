import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { FormError } from "../form-error.tsx";
import { isEditor, useSessionUser } from "../session.ts";
import { trpc } from "../trpc.ts";

function NewFeature({ projectId }: { projectId: string }) {
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const create = useMutation({
    mutationFn: () => trpc.features.create.mutate({ projectId, name, description: description || null }),
    onSuccess: () => {
      setName("");
      setDescription("");
      return client.invalidateQueries({ queryKey: ["features", projectId] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card row" onSubmit={submit} aria-label="New feature">
      <label>
        Feature name
        <input required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Description
        <input value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <button type="submit" disabled={create.isPending}>
        Create feature
      </button>
      <FormError error={create.error} />
    </form>
  );
}

/** A project's features and where its change requests are on. */
export function ProjectPage({ projectId }: { projectId: string }) {
  const user = useSessionUser();
  const features = useQuery({ queryKey: ["features", projectId], queryFn: () => trpc.features.list.query({ projectId }) });
  const config = useQuery({ queryKey: ["cr-config", projectId], queryFn: () => trpc.changeRequests.config.query({ projectId }) });
  const gated = config.data?.filter((c) => c.changeRequestsEnabled) ?? [];
  return (
    <>
      <p className="crumbs">
        <Link href="/projects">Projects</Link> / {projectId}
      </p>
      <h1>Project {projectId}</h1>
      {gated.length > 0 && (
        <p className="notice">
          Change requests are on in {gated.map((c) => `${c.environment} (${c.requiredApprovals} approval${c.requiredApprovals === 1 ? "" : "s"})`).join(", ")}: edits there go
          into a change request.
        </p>
      )}
      <FormError error={features.error ?? config.error} />
      <table aria-busy={features.isPending}>
        <caption>Features</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {features.data?.features.map((f) => (
            <tr key={f.name}>
              <td>
                <Link href={`/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(f.name)}`}>{f.name}</Link>
              </td>
              <td>{f.type}</td>
              <td>{f.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {features.data?.features.length === 0 && <p className="muted">No features yet.</p>}
      {isEditor(user) && <NewFeature projectId={projectId} />}
    </>
  );
}
