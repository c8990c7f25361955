import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { trpc } from "../trpc.ts";

/**
 * The groups and their members, for Admins (docs/scim.md#groups): who manages each, SCIM or single
 * sign-on's groups claim (docs/oidc.md#groups). A group's project roles are given on a project's access page.
 */
export function GroupsPage() {
  const groups = useQuery(trpc.groups.list.queryOptions());
  return (
    <>
      <h1>Groups</h1>
      <p className="muted">
        Groups come from your identity provider: over SCIM, or from the groups claim at single sign-on. Give a group a role in a project on
        the project's Access page.
      </p>
      <FormError error={groups.error} />
      <DataTable caption="Every group, by name" columns={["Name", "Managed by", "Members", "Who"]} busy={groups.isPending}>
        {groups.data?.groups.map((g) => (
          <tr key={g.id}>
            <td>{g.name}</td>
            <td>{g.scimId ? "Managed by SCIM" : g.createdBy === "oidc" ? "Single sign-on" : "Vexil"}</td>
            <td>{g.userCount}</td>
            <td>{g.users.map((m) => m.user.name ?? m.user.username ?? m.user.email ?? `user ${m.user.id}`).join(", ")}</td>
          </tr>
        ))}
      </DataTable>
      {groups.data?.groups.length === 0 && <p className="muted">There are no groups yet.</p>}
    </>
  );
}
