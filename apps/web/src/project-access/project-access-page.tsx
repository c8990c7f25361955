import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { DataTable } from "../data-table.tsx";
import { FormError, SubmitRow } from "../form-error.tsx";
import { isAdmin, useSessionUser } from "../session.ts";
import { type RouterOutputs, trpc, trpcClient } from "../trpc.ts";

type Access = RouterOutputs["projectAccess"]["get"];
type Holder = { kind: "user" | "group"; id: number; label: string; roles: number[]; scimId?: string | null | undefined };

/** A project's access (docs/project-roles.md#project-access): who holds which project role, and, for Admins and its Owners, changing it. */
export function ProjectAccessPage({ projectId }: { projectId: string }) {
  const access = useQuery(trpc.projectAccess.get.queryOptions({ projectId }));
  const roleName = (id: number) => access.data?.roles.find((r) => r.id === id)?.name ?? String(id);
  const holders: Holder[] = [
    ...(access.data?.users ?? []).map((u) => ({
      kind: "user" as const,
      id: u.id,
      label: u.username ?? u.email ?? u.name ?? `user ${u.id}`,
      roles: u.roles,
      scimId: u.scimId,
    })),
    ...(access.data?.groups ?? []).map((g) => ({ kind: "group" as const, id: g.id, label: g.name, roles: g.roles, scimId: g.scimId })),
  ];
  const canChange = access.data?.canChangeAccess === true;
  return (
    <>
      <p className="crumbs">
        <Link href="/projects">Projects</Link> / <Link href={`/projects/${encodeURIComponent(projectId)}`}>{projectId}</Link> / access
      </p>
      <h1>Access to {projectId}</h1>
      <p className="muted">
        Project roles decide what their holders may do in this project; elsewhere their root role does. Owners change this page.
      </p>
      <FormError error={access.error} />
      <DataTable
        caption="Users and groups with a role in this project"
        columns={["Who", "Kind", "Roles", "Actions"]}
        busy={access.isPending}
      >
        {holders.map((h) => (
          <tr key={`${h.kind}-${h.id}`}>
            <td>
              {h.label}
              {h.scimId ? (
                <>
                  {" "}
                  <span className="pill off">SCIM</span>
                </>
              ) : null}
            </td>
            <td>{h.kind === "user" ? "User" : "Group"}</td>
            <td>{h.roles.map(roleName).join(", ")}</td>
            <td>{canChange && access.data && <HolderActions projectId={projectId} holder={h} roles={access.data.roles} />}</td>
          </tr>
        ))}
      </DataTable>
      {holders.length === 0 && !access.isPending && <p className="muted">Nobody holds a role here: root roles decide.</p>}
      {canChange && access.data && <GrantRole projectId={projectId} roles={access.data.roles} />}
    </>
  );
}

/** After a change: the access list, and what the user may do in the project (their own roles may have changed). */
function useRefresh(projectId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries(trpc.projectAccess.get.queryFilter({ projectId })),
      client.invalidateQueries(trpc.projectAccess.permissions.queryFilter({ projectId })),
    ]);
}

/** Changing a holder's role (to one role) and removing their access. */
function HolderActions({ projectId, holder, roles }: { projectId: string; holder: Holder; roles: Access["roles"] }) {
  const refresh = useRefresh(projectId);
  const set = useMutation({
    mutationFn: (role: number) =>
      holder.kind === "user"
        ? trpcClient.projectAccess.setUserRoles.mutate({ projectId, userId: holder.id, roles: [role] })
        : trpcClient.projectAccess.setGroupRoles.mutate({ projectId, groupId: holder.id, roles: [role] }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () =>
      holder.kind === "user"
        ? trpcClient.projectAccess.removeUserAccess.mutate({ projectId, userId: holder.id })
        : trpcClient.projectAccess.removeGroupAccess.mutate({ projectId, groupId: holder.id }),
    onSuccess: refresh,
  });
  return (
    <div className="row">
      <label>
        Role of {holder.label}
        <select value={holder.roles[0]} disabled={set.isPending} onChange={(e) => set.mutate(Number(e.target.value))}>
          <Options items={roles.map((r) => ({ id: r.id, label: r.name }))} />
        </select>
      </label>
      <button
        type="button"
        className="danger"
        aria-label={`Remove ${holder.label}`}
        disabled={remove.isPending}
        onClick={() => remove.mutate()}
      >
        Remove
      </button>
      <FormError error={set.error ?? remove.error} />
    </div>
  );
}

/** A select's options, each an id with its label. */
function Options({ items }: { items: { id: number; label: string }[] }) {
  return items.map((item) => (
    <option key={item.id} value={item.id}>
      {item.label}
    </option>
  ));
}

/** Giving a role to a user or a group: Admins pick from the lists, an Owner (who cannot list users) types an id. */
function GrantRole({ projectId, roles }: { projectId: string; roles: Access["roles"] }) {
  const admin = isAdmin(useSessionUser());
  const users = useQuery({ ...trpc.users.list.queryOptions(), enabled: admin });
  const groups = useQuery({ ...trpc.groups.list.queryOptions(), enabled: admin });
  const refresh = useRefresh(projectId);
  const empty = {
    kind: "user" as "user" | "group",
    who: "",
    roleId: String(roles.find((r) => r.name === "Member")?.id ?? roles[0]?.id ?? ""),
  };
  const [fields, setFields] = useState(empty);
  const grant = useMutation({
    mutationFn: () => {
      const holder = [{ id: Number(fields.who) }];
      return trpcClient.projectAccess.addRoleAccess.mutate({
        projectId,
        roleId: Number(fields.roleId),
        ...(fields.kind === "user" ? { users: holder } : { groups: holder }),
      });
    },
    onSuccess: async () => {
      setFields(empty);
      await refresh();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    grant.mutate();
  };
  const options =
    fields.kind === "user"
      ? users.data?.users.map((u) => ({ id: u.id, label: `${u.username ?? u.email ?? u.id}${u.scimId ? " (SCIM)" : ""}` }))
      : groups.data?.groups.map((g) => ({ id: g.id, label: `${g.name}${g.scimId ? " (SCIM)" : ""}` }));
  return (
    <form className="card" onSubmit={submit} aria-label="Give a role">
      <h2>Give a role</h2>
      <div className="row">
        <label>
          To a
          <select value={fields.kind} onChange={(e) => setFields((f) => ({ ...f, kind: e.target.value as "user" | "group", who: "" }))}>
            <option value="user">User</option>
            <option value="group">Group</option>
          </select>
        </label>
        {options ? (
          <label>
            {fields.kind === "user" ? "User" : "Group"}
            <select required value={fields.who} onChange={(e) => setFields((f) => ({ ...f, who: e.target.value }))}>
              <option value="">Pick one</option>
              <Options items={options} />
            </select>
          </label>
        ) : (
          <label>
            {fields.kind === "user" ? "User id" : "Group id"}
            <input type="number" min={1} required value={fields.who} onChange={(e) => setFields((f) => ({ ...f, who: e.target.value }))} />
          </label>
        )}
        <label>
          Role
          <select value={fields.roleId} onChange={(e) => setFields((f) => ({ ...f, roleId: e.target.value }))}>
            <Options items={roles.map((r) => ({ id: r.id, label: r.name }))} />
          </select>
        </label>
      </div>
      <SubmitRow label="Give role" busy={grant.isPending} error={grant.error} />
    </form>
  );
}
