import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { FormError } from "../form-error.tsx";
import { trpc } from "../trpc.ts";

const featurePath = (projectId: string, featureName: string) =>
  `/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(featureName)}`;

/** Where a segment is used (GET /api/admin/segments/:id/strategies), each strategy linked to its flag. */
export function SegmentUse({ id }: { id: number }) {
  const use = useQuery(trpc.segments.strategies.queryOptions({ id }));
  if (use.error) return <FormError error={use.error} />;
  if (!use.data) return <p className="muted">Looking up where it is used…</p>;
  const { strategies, changeRequestStrategies } = use.data;
  return (
    <>
      {strategies.length > 0 && (
        <>
          <p>Used by these strategies; remove it from them first:</p>
          <ul aria-label="Strategies using the segment">
            {strategies.map((s) => (
              <li key={s.id}>
                {s.strategyName} of <Link href={featurePath(s.projectId, s.featureName)}>{s.featureName}</Link> in {s.environment} (project{" "}
                {s.projectId})
              </li>
            ))}
          </ul>
        </>
      )}
      {changeRequestStrategies.length > 0 && (
        <>
          <p>Pending change requests would use it too:</p>
          <ul aria-label="Change requests using the segment">
            {changeRequestStrategies.map((s, i) => (
              <li key={i}>
                {s.strategyName} of {s.featureName} in {s.environment}, in{" "}
                <Link href={`/projects/${encodeURIComponent(s.projectId)}/change-requests/${s.changeRequest.id}`}>
                  change request #{s.changeRequest.id}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
