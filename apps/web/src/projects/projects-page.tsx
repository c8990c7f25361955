import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { FormError } from "../form-error.tsx";
import { isAdmin, useSessionUser } from "../session.ts";
import { trpc } from "../trpc.ts";

function NewProject() {
  const client = useQueryClient();
  const [id, setId] = useState("");
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => trpc.projects.create.mutate({ id, name }),
    onSuccess: () => {
      setId("");
      setName("");
      return client.invalidateQueries({ queryKey: ["projects"] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card row" onSubmit={submit} aria-label="New project">
      <label>
        Project id
        <input required value={id} onChange={(e) => setId(e.target.value)} />
      </label>
      <label>
        Name
        <input required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" disabled={create.isPending}>
        Create project
      </button>
      <FormError error={create.error} />
    </form>
  );
}

export function ProjectsPage() {
  const user = useSessionUser();
  const projects = useQuery({ queryKey: ["projects"], queryFn: () => trpc.projects.list.query() });
  return (
    <>
      <h1>Projects</h1>
      <FormError error={projects.error} />
      <ul className="cards" aria-busy={projects.isPending}>
        {projects.data?.projects.map((p) => (
          <li key={p.id} className="card">
            <h2>
              <Link href={`/projects/${encodeURIComponent(p.id)}`}>{p.name}</Link>
            </h2>
            <p className="muted">{p.id}</p>
            {p.description && <p>{p.description}</p>}
          </li>
        ))}
      </ul>
      {isAdmin(user) && <NewProject />}
    </>
  );
}
