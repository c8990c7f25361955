import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { FormError } from "../form-error.tsx";
import { Markdown } from "../markdown.tsx";
import { trpc, trpcClient } from "../trpc.ts";
import { BannerForm, type BannerFields } from "./banner-form.tsx";
import type { Banner } from "./banner-view.tsx";
import { DataTable } from "../data-table.tsx";

/** Banner admin: list, create with a live preview, edit, on/off and delete. */
export function BannersPage() {
  const client = useQueryClient();
  const banners = useQuery(trpc.banners.list.queryOptions());
  const [editing, setEditing] = useState<Banner | null>(null);
  const [formKey, setFormKey] = useState(0);
  const refresh = () => client.invalidateQueries(trpc.banners.list.queryFilter());
  const create = useMutation({
    mutationFn: (fields: BannerFields) => trpcClient.banners.create.mutate(fields),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      return refresh();
    },
  });
  const update = useMutation({
    mutationFn: ({ id, fields }: { id: number; fields: BannerFields }) => trpcClient.banners.update.mutate({ id, ...fields }),
    onSuccess: () => {
      setEditing(null);
      return refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (b: Banner) =>
      b.enabled ? trpcClient.banners.disable.mutate({ id: b.id }) : trpcClient.banners.enable.mutate({ id: b.id }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: number) => trpcClient.banners.delete.mutate({ id }), onSuccess: refresh });

  return (
    <>
      <h1>Banners</h1>
      {editing ? (
        <BannerForm
          key={`edit-${editing.id}`}
          initial={editing}
          busy={update.isPending}
          error={update.error}
          onSave={(fields) => update.mutate({ id: editing.id, fields })}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <BannerForm key={formKey} busy={create.isPending} error={create.error} onSave={(fields) => create.mutate(fields)} />
      )}
      <FormError error={banners.error ?? toggle.error ?? remove.error} />
      <DataTable caption="All banners, newest first" columns={["Id", "Message", "Variant", "Sticky", "Shown", "Actions"]}>
        {banners.data?.banners.map((b) => (
          <tr key={b.id}>
            <td>{b.id}</td>
            <td>
              <Markdown text={b.message} inline />
            </td>
            <td>{b.variant}</td>
            <td>{b.sticky ? "yes" : "no"}</td>
            <td>
              <label className="switch">
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={b.enabled}
                  checked={b.enabled}
                  onChange={() => toggle.mutate(b)}
                  aria-label={`Show banner ${b.id}`}
                />
                {b.enabled ? "on" : "off"}
              </label>
            </td>
            <td className="actions">
              <button type="button" className="secondary" onClick={() => setEditing(b)} aria-label={`Edit banner ${b.id}`}>
                Edit
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Delete banner ${b.id}`}
                onClick={() => window.confirm(`Delete banner ${b.id}?`) && remove.mutate(b.id)}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      {banners.data?.banners.length === 0 && <p className="muted">No banners yet.</p>}
    </>
  );
}
