import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { lifetimeText, useFeatureTypes } from "../feature-grid/use-feature-types.ts";
import { FormError } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";

interface Props {
  projectId: string;
  featureName: string;
  type: string;
  stale: boolean;
  canEdit: boolean;
}

/** A flag's daily life on its page: its type and expected lifetime, stale or not, its tags, and archiving it. */
export function FeatureDailyLife({ projectId, featureName, type, stale, canEdit }: Props) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const types = useFeatureTypes();
  const typeView = types.find((t) => t.id === type);
  const refresh = () => client.invalidateQueries(trpc.features.get.queryFilter({ projectId, featureName }));

  const markStale = useMutation({
    mutationFn: (value: boolean) => trpcClient.featureStaleness.markStale.mutate({ projectId, features: [featureName], stale: value }),
    onSuccess: refresh,
  });
  const archive = useMutation({
    mutationFn: () => trpcClient.featureArchive.archive.mutate({ projectId, featureName }),
    onSuccess: async () => {
      await client.invalidateQueries(trpc.featureSearch.search.pathFilter());
      navigate(`/projects/${encodeURIComponent(projectId)}`);
    },
  });

  return (
    <section className="card" aria-labelledby="daily-life">
      <h2 id="daily-life">About this flag</h2>
      <p>
        Type <strong>{typeView?.name ?? type}</strong>, expected to live {lifetimeText(typeView?.lifetimeDays)}.{" "}
        {stale && <span className="pill stale">stale</span>}
      </p>
      {canEdit && (
        <div className="row">
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              aria-checked={stale}
              checked={stale}
              disabled={markStale.isPending}
              onChange={(e) => markStale.mutate(e.target.checked)}
            />
            Stale
          </label>
          <button type="button" className="danger" onClick={() => archive.mutate()} disabled={archive.isPending}>
            Archive flag
          </button>
        </div>
      )}
      <FormError error={markStale.error ?? archive.error} />
      <FeatureTags featureName={featureName} canEdit={canEdit} />
    </section>
  );
}

/** A flag's tags, added as `type:value` (or a bare value of the `simple` type) and removed one by one. */
function FeatureTags({ featureName, canEdit }: { featureName: string; canEdit: boolean }) {
  const client = useQueryClient();
  const tags = useQuery(trpc.featureTags.list.queryOptions({ featureName }));
  const [text, setText] = useState("");
  const refresh = () =>
    Promise.all([
      client.invalidateQueries(trpc.featureTags.list.queryFilter({ featureName })),
      client.invalidateQueries(trpc.featureSearch.search.pathFilter()),
    ]);
  const add = useMutation({
    mutationFn: () => {
      const at = text.indexOf(":");
      const [type, value] = at === -1 ? ["simple", text.trim()] : [text.slice(0, at).trim(), text.slice(at + 1).trim()];
      return trpcClient.featureTags.add.mutate({ featureName, type, value });
    },
    onSuccess: () => {
      setText("");
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (tag: { type: string; value: string }) => trpcClient.featureTags.remove.mutate({ featureName, ...tag }),
    onSuccess: refresh,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <>
      <h3>Tags</h3>
      <ul className="tags" aria-label="Tags">
        {tags.data?.tags.map((t) => (
          <li key={`${t.type}:${t.value}`} className="tag">
            {t.type}:{t.value}
            {canEdit && (
              <button
                type="button"
                className="link"
                aria-label={`Remove tag ${t.type}:${t.value}`}
                onClick={() => remove.mutate({ type: t.type, value: t.value })}
              >
                ×
              </button>
            )}
          </li>
        ))}
        {tags.data?.tags.length === 0 && <li className="muted">No tags.</li>}
      </ul>
      {canEdit && (
        <form className="row" onSubmit={submit} aria-label="Add a tag">
          <label>
            Tag
            <input required value={text} onChange={(e) => setText(e.target.value)} placeholder="simple:checkout" />
          </label>
          <button type="submit" disabled={add.isPending}>
            Add tag
          </button>
        </form>
      )}
      <FormError error={tags.error ?? add.error ?? remove.error} />
    </>
  );
}
