import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RootRole, type RootRoleId } from "@vexil/client/root-roles";
import { useState, type FormEvent } from "react";
import { FormError, SubmitRow } from "../form-error.tsx";
import { ROLE_NAMES, useSessionUser } from "../session.ts";
import { trpc, trpcClient } from "../trpc.ts";
import { DataTable } from "../data-table.tsx";

function NewUser() {
  const client = useQueryClient();
  const empty = { username: "", name: "", email: "", password: "", rootRole: RootRole.Editor as RootRoleId };
  const [fields, setFields] = useState(empty);
  const create = useMutation({
    mutationFn: () =>
      trpcClient.users.create.mutate({
        username: fields.username || null,
        name: fields.name || null,
        email: fields.email || null,
        password: fields.password || null,
        rootRole: fields.rootRole,
      }),
    onSuccess: () => {
      setFields(empty);
      return client.invalidateQueries(trpc.users.list.queryFilter());
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const input = (key: "username" | "name" | "email" | "password") => ({
    value: fields[key],
    onChange: (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value })),
  });
  return (
    <form className="card" onSubmit={submit} aria-label="New user">
      <h2>New user</h2>
      <div className="row">
        <label>
          Username
          <input {...input("username")} autoComplete="off" />
        </label>
        <label>
          Name
          <input {...input("name")} />
        </label>
        <label>
          E-mail
          <input type="email" {...input("email")} />
        </label>
        <label>
          Password
          <input type="password" {...input("password")} autoComplete="new-password" />
        </label>
        <label>
          Role
          <select value={fields.rootRole} onChange={(e) => setFields((f) => ({ ...f, rootRole: Number(e.target.value) as RootRoleId }))}>
            {Object.entries(RootRole).map(([name, id]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <SubmitRow label="Create user" busy={create.isPending} error={create.error} />
    </form>
  );
}

export function UsersPage() {
  const me = useSessionUser();
  const client = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const remove = useMutation({
    mutationFn: (id: number) => trpcClient.users.delete.mutate({ id }),
    onSuccess: () => client.invalidateQueries(trpc.users.list.queryFilter()),
  });
  return (
    <>
      <h1>Users</h1>
      <FormError error={users.error ?? remove.error} />
      <DataTable
        caption="Everyone who can log in"
        columns={["Username", "Name", "E-mail", "Role", "Signs in with", "Managed by", "Last login", "Failed logins", "Actions"]}
        busy={users.isPending}
      >
        {users.data?.users.map((u) => (
          <tr key={u.id}>
            <td>{u.username}</td>
            <td>{u.name}</td>
            <td>{u.email}</td>
            <td>{ROLE_NAMES[u.rootRole ?? RootRole.Viewer]}</td>
            <td>{u.authProvider === "oidc" ? "Single sign-on" : "Password"}</td>
            <td>{u.scimId ? "SCIM" : "Vexil"}</td>
            <td>{u.seenAt ? new Date(u.seenAt).toLocaleString() : "never"}</td>
            <td>{u.loginAttempts ?? 0}</td>
            <td>
              {u.id !== me?.id && (
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete user ${u.username ?? u.email ?? u.id}`}
                  onClick={() => window.confirm(`Delete ${u.username ?? u.email}? Their sessions end at once.`) && remove.mutate(u.id)}
                >
                  Delete
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <NewUser />
    </>
  );
}
