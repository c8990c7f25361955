import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { ACTION_LABELS } from "../change-requests/action-labels.ts";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { inboxQueryOptions } from "./inbox-count.tsx";

/** The moves that put a request in the inbox, in the words of its buttons. */
const WAITING_ON_YOU = ["Approved", "Applied", "Scheduled"] as const;

/** The reviewer's inbox: every request, in any project, that the server says this user can act on now. */
export function InboxPage() {
  const inbox = useQuery(inboxQueryOptions());
  const data = inbox.data;
  return (
    <>
      <h1>Your inbox</h1>
      <p className="muted">
        Change requests in any project that you can review or apply now. <Link href="/change-requests">Your own pending requests</Link>
      </p>
      <FormError error={inbox.error} />
      {data && (
        <p>
          <strong>{data.review}</strong> to review, <strong>{data.apply}</strong> to apply or schedule.
        </p>
      )}
      <DataTable
        caption="Change requests waiting on you, oldest first"
        columns={["Request", "Project", "Environment", "Features", "State", "Proposed by", "You can"]}
        busy={inbox.isPending}
      >
        {(data?.changeRequests ?? []).map((r) => (
          <tr key={r.id}>
            <td>
              <Link href={`/projects/${encodeURIComponent(r.project)}/change-requests/${r.id}`}>
                #{r.id}
                {r.title ? ` ${r.title}` : ""}
              </Link>
            </td>
            <td>{r.project}</td>
            <td>{r.environment}</td>
            <td>{r.features.map((f) => f.name).join(", ")}</td>
            <td>
              {r.state}
              {r.state === "In review" && ` (${r.approvals?.length ?? 0} of ${r.minApprovals} approvals)`}
            </td>
            <td>{r.createdBy.username ?? `user ${r.createdBy.id}`}</td>
            <td>
              {WAITING_ON_YOU.filter((a) => r.actions.includes(a))
                .map((a) => ACTION_LABELS[a])
                .join(", ")}
            </td>
          </tr>
        ))}
      </DataTable>
      {data && data.changeRequests.length === 0 && <p className="muted">Nothing waits on you.</p>}
    </>
  );
}
