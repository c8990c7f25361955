import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { CreateForm } from "../create-form.tsx";
import { FormError } from "../form-error.tsx";
import { isAdmin, useSessionUser } from "../session.ts";
import { trpc, trpcClient } from "../trpc.ts";

export function ProjectsPage() {
  const user = useSessionUser();
  const projects = useQuery(trpc.projects.list.queryOptions());
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
      {isAdmin(user) && (
        <CreateForm
          title="New project"
          fields={[
            { name: "id", label: "Project id", required: true },
            { name: "name", label: "Name", required: true },
          ]}
          submitLabel="Create project"
          refresh={trpc.projects.list.queryFilter()}
          create={(v) => trpcClient.projects.create.mutate({ id: v.id ?? "", name: v.name ?? "" })}
        />
      )}
    </>
  );
}
