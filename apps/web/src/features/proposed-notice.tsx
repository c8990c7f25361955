import { Link } from "wouter";

/** Says which change request an edit went into, and what happens to it next. */
export function ProposedNotice({ projectId, request }: { projectId: string; request: { id: number; state: string } }) {
  return (
    <p className="success" role="status">
      Added to your change request{" "}
      <Link href={`/projects/${encodeURIComponent(projectId)}/change-requests/${request.id}`}>#{request.id}</Link>
      {request.state === "Draft"
        ? ", a draft: open it to send it for review."
        : `, which is ${request.state} now: a reviewer approves it on its page.`}
    </p>
  );
}
