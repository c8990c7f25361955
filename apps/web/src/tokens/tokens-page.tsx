import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { FormError, SubmitRow } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";
import { NewTokenSecret } from "./new-token-secret.tsx";
import { DataTable } from "../data-table.tsx";

type TokenType = "admin" | "client" | "frontend" | "scim";

/** API tokens: the list (never secrets), a new token shown once, revoking. */
export function TokensPage() {
  const client = useQueryClient();
  const tokens = useQuery(trpc.apiTokens.list.queryOptions());
  const [tokenName, setTokenName] = useState("");
  const [type, setType] = useState<TokenType>("client");
  const [project, setProject] = useState("");
  const [environment, setEnvironment] = useState("");
  // Admin and SCIM tokens have no project or environment (docs/auth.md#api-tokens).
  const scoped = type === "client" || type === "frontend";
  const create = useMutation({
    mutationFn: () =>
      trpcClient.apiTokens.create.mutate({
        tokenName,
        type,
        ...(scoped && project ? { projects: [project] } : {}),
        ...(scoped && environment ? { environment } : {}),
      }),
    onSuccess: () => {
      setTokenName("");
      return client.invalidateQueries(trpc.apiTokens.list.queryFilter());
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => trpcClient.apiTokens.delete.mutate({ id }),
    onSuccess: () => client.invalidateQueries(trpc.apiTokens.list.queryFilter()),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <h1>API tokens</h1>
      <form className="card" onSubmit={submit} aria-label="New API token">
        <h2>New token</h2>
        <div className="row">
          <label>
            Name
            <input required value={tokenName} onChange={(e) => setTokenName(e.target.value)} />
          </label>
          <label>
            Type
            <select value={type} onChange={(e) => setType(e.target.value as TokenType)}>
              <option value="client">client</option>
              <option value="frontend">frontend</option>
              <option value="admin">admin</option>
              <option value="scim">scim (identity provider)</option>
            </select>
          </label>
          {scoped && (
            <>
              <label>
                Project (empty: all)
                <input value={project} onChange={(e) => setProject(e.target.value)} />
              </label>
              <label>
                Environment (empty: development)
                <input value={environment} onChange={(e) => setEnvironment(e.target.value)} />
              </label>
            </>
          )}
        </div>
        <SubmitRow label="Create token" busy={create.isPending} error={create.error} />
      </form>
      {create.data && <NewTokenSecret key={create.data.id} name={create.data.tokenName} secret={create.data.secret} />}
      <FormError error={tokens.error ?? revoke.error} />
      <DataTable
        caption="Tokens (their secrets are never shown again)"
        columns={["Name", "Type", "Projects", "Environment", "Created", "Actions"]}
        busy={tokens.isPending}
      >
        {tokens.data?.tokens.map((t) => (
          <tr key={t.id}>
            <td>{t.tokenName}</td>
            <td>{t.type}</td>
            <td>{t.projects.join(", ")}</td>
            <td>{t.environment}</td>
            <td>{new Date(t.createdAt).toLocaleString()}</td>
            <td>
              <button
                type="button"
                className="danger"
                aria-label={`Revoke token ${t.tokenName}`}
                onClick={() => window.confirm(`Revoke ${t.tokenName}? Apps using it lose access at once.`) && revoke.mutate(t.id)}
              >
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
