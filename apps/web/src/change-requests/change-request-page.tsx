import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import type { VariantInput } from "../features/variant-draft.ts";
import { FormError } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";
import { ACTION_LABELS, type ChangeRequest, type TargetState } from "./action-labels.ts";
import { EnabledDiff, VariantsDiff } from "./change-diff.tsx";
import { FlagChange } from "./flag-change.tsx";
import { StrategyChange } from "./strategy-change.tsx";

/** The moves the server lists as this user's to make, one button each. */
function Actions({ request }: { request: ChangeRequest }) {
  const client = useQueryClient();
  const [comment, setComment] = useState("");
  const [when, setWhen] = useState("");
  const move = useMutation({
    mutationFn: (state: TargetState) =>
      trpcClient.changeRequests.setState.mutate({
        projectId: request.project,
        id: request.id,
        state,
        version: request.version,
        ...(comment ? { comment } : {}),
        ...(state === "Scheduled" ? { scheduledAt: new Date(when).toISOString() } : {}),
      }),
    onSuccess: (updated) => {
      setComment("");
      client.setQueryData(trpc.changeRequests.get.queryKey({ projectId: request.project, id: request.id }), updated);
      return client.invalidateQueries();
    },
  });
  const actions = request.actions;
  if (actions.length === 0)
    return (
      <p className="muted">
        Nothing here is yours to do: {request.state === "In review" ? "another reviewer must approve it." : `it is ${request.state}.`}
      </p>
    );
  return (
    <section className="card" aria-labelledby="actions-title">
      <h2 id="actions-title">What you can do</h2>
      <label>
        Comment (optional)
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
      </label>
      {actions.includes("Scheduled") && (
        <label>
          Apply at (your local time)
          <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} />
        </label>
      )}
      <div className="row">
        {actions.map((state) => (
          <button
            key={state}
            type="button"
            className={state === "Cancelled" || state === "Rejected" ? "danger" : undefined}
            disabled={move.isPending || (state === "Scheduled" && !when)}
            onClick={() => move.mutate(state)}
          >
            {ACTION_LABELS[state]}
          </button>
        ))}
      </div>
      <FormError error={move.error} />
    </section>
  );
}

/** One change request: its state, schedule, reviews, and each change as a before/after diff. */
export function ChangeRequestPage({ projectId, id }: { projectId: string; id: number }) {
  const request = useQuery(trpc.changeRequests.get.queryOptions({ projectId, id }));
  const r = request.data;
  const features = useQueries({
    queries: (r?.features ?? []).map((f) => trpc.features.get.queryOptions({ projectId, featureName: f.name })),
  });
  return (
    <>
      <p className="crumbs">
        <Link href="/change-requests">Change requests</Link> / {projectId} / #{id}
      </p>
      <h1>
        Change request #{id}
        {r?.title ? `: ${r.title}` : ""}
      </h1>
      <FormError error={request.error} />
      {r && (
        <>
          <dl className="facts">
            <dt>State</dt>
            <dd data-testid="cr-state">{r.state}</dd>
            <dt>Environment</dt>
            <dd>{r.environment}</dd>
            <dt>Created by</dt>
            <dd>
              {r.createdBy.username} on {new Date(r.createdAt).toLocaleString()}
            </dd>
            <dt>Approvals</dt>
            <dd>
              {r.approvals?.length ?? 0} of {r.minApprovals} needed
              {r.approvals?.length ? `: ${r.approvals.map((a) => a.createdBy.username).join(", ")}` : ""}
            </dd>
            {r.state === "Scheduled" && (
              <>
                <dt>Schedule</dt>
                <dd data-testid="cr-schedule">
                  {new Date(r.schedule.scheduledAt).toLocaleString()}, {r.schedule.status}
                  {r.schedule.reason ? `: ${r.schedule.reason}` : ""}
                </dd>
              </>
            )}
            {r.rejections?.map((x, i) => (
              <div key={i}>
                <dt>Rejected by {x.createdBy.username}</dt>
                <dd>{x.text ?? "no reason given"}</dd>
              </div>
            ))}
          </dl>
          <Actions request={r} />
          <h2>Changes</h2>
          {r.features.map((f, i) => {
            const env = features[i]?.data?.environments.find((e) => e.name === r.environment);
            return (
              <section key={f.name} className="card" aria-label={`Changes to ${f.name}`}>
                <h3>
                  <Link href={`/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(f.name)}`}>{f.name}</Link>
                </h3>
                {f.changes.map((c) =>
                  c.action === "patchVariant" ? (
                    <VariantsDiff
                      key={c.id}
                      caption={`Variants, proposed by ${c.createdBy.username}`}
                      now={env?.variants}
                      proposed={(c.payload as { variants: VariantInput[] }).variants}
                    />
                  ) : c.action === "addStrategy" || c.action === "updateStrategy" || c.action === "deleteStrategy" ? (
                    <StrategyChange key={c.id} action={c.action} payload={c.payload as Record<string, unknown>} now={env?.strategies} />
                  ) : c.action === "updateEnabled" ? (
                    <EnabledDiff key={c.id} now={env?.enabled} proposed={(c.payload as { enabled: boolean }).enabled} />
                  ) : (
                    <FlagChange key={c.id} action={c.action} payload={c.payload} now={env?.strategies} />
                  ),
                )}
              </section>
            );
          })}
          {(r.comments?.length ?? 0) > 0 && (
            <section aria-labelledby="comments-title">
              <h2 id="comments-title">Comments</h2>
              <ul>
                {r.comments?.map((c) => (
                  <li key={c.id}>
                    {c.createdBy.username}: {c.text}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </>
  );
}
