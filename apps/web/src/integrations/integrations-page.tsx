import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { DataTable } from "../data-table.tsx";
import { FormError, SubmitRow } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";
import { Deliveries } from "./deliveries.tsx";

type Provider = "webhook" | "slack";

/**
 * Integrations for Admins (docs/webhooks.md#the-console): the list, a new webhook or Slack
 * integration (its signing secret shown once), switching one on and off, deleting it, and the
 * recent deliveries of the one picked.
 */
export function IntegrationsPage() {
  const client = useQueryClient();
  const addons = useQuery(trpc.addons.list.queryOptions());
  const [provider, setProvider] = useState<Provider>("webhook");
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["feature-created", "feature-environment-enabled", "feature-environment-disabled"]);
  const [shown, setShown] = useState<number | undefined>(undefined);
  const refresh = () => client.invalidateQueries(trpc.addons.list.queryFilter());
  const create = useMutation({
    mutationFn: () => trpcClient.addons.create.mutate({ provider, description: description || null, parameters: { url }, events }),
    onSuccess: (addon) => {
      setUrl("");
      setDescription("");
      setShown(addon.id);
      return refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (a: { id: number; enabled: boolean }) => trpcClient.addons.update.mutate(a),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => trpcClient.addons.delete.mutate({ id }),
    onSuccess: refresh,
  });
  const eventTypes = addons.data?.providers.find((p) => p.name === provider)?.events ?? [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <h1>Integrations</h1>
      <form className="card" onSubmit={submit} aria-label="New integration">
        <h2>New integration</h2>
        <div className="row">
          <label>
            Provider
            <select value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
              <option value="webhook">Webhook</option>
              <option value="slack">Slack</option>
            </select>
          </label>
          <label>
            {provider === "slack" ? "Slack incoming webhook URL" : "Webhook URL"}
            <input required type="url" value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <label>
            Description
            <input value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <label>
            Events
            <select multiple size={6} value={events} onChange={(e) => setEvents([...e.target.selectedOptions].map((o) => o.value))}>
              {eventTypes.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </label>
        </div>
        <SubmitRow label="Create integration" busy={create.isPending} error={create.error} />
      </form>
      {create.data && (
        <div className="card" role="status">
          <p>
            Integration {create.data.id} created. Its signing secret, shown only now (receivers check the <code>X-Vexil-Signature</code>{" "}
            header with it):
          </p>
          <p>
            <code data-testid="signing-secret">{create.data.parameters.signingSecret}</code>
          </p>
        </div>
      )}
      <FormError error={addons.error ?? toggle.error ?? remove.error} />
      <DataTable caption="Integrations" columns={["Id", "Provider", "Description", "Events", "State", "Actions"]} busy={addons.isPending}>
        {addons.data?.addons.map((a) => (
          <tr key={a.id} data-addon-id={a.id}>
            <td>{a.id}</td>
            <td>{a.provider}</td>
            <td>{a.description ?? <span className="muted">–</span>}</td>
            <td>{a.events.join(", ")}</td>
            <td>{a.enabled ? "On" : "Off"}</td>
            <td className="nowrap">
              <button type="button" className="secondary" onClick={() => setShown(a.id)} aria-pressed={shown === a.id}>
                Deliveries
              </button>{" "}
              <button type="button" className="secondary" onClick={() => toggle.mutate({ id: a.id, enabled: !a.enabled })}>
                {a.enabled ? "Turn off" : "Turn on"}
              </button>{" "}
              <button type="button" className="secondary" onClick={() => remove.mutate(a.id)}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      {addons.isSuccess && addons.data.addons.length === 0 && <p className="muted">No integrations yet.</p>}
      {shown !== undefined && addons.data?.addons.some((a) => a.id === shown) && <Deliveries id={shown} />}
    </>
  );
}
