import { useMutation } from "@tanstack/react-query";
import { DataTable } from "../data-table.tsx";
import { trpcClient } from "../trpc.ts";
import { type PlaygroundRequest, PlaygroundForm } from "./playground-form.tsx";
import { StrategyExplanation, verdict } from "./playground-results.tsx";

/** Is this flag on for this user, and why: every flag evaluated for a context, as an SDK would answer (POST /api/admin/playground). */
export function PlaygroundPage() {
  const evaluate = useMutation({ mutationFn: (request: PlaygroundRequest) => trpcClient.playground.evaluate.mutate(request) });
  const result = evaluate.data;
  return (
    <>
      <h1>Playground</h1>
      <p className="muted">Pick an environment and a context, and read which flags are on for it, and why. Nothing is changed.</p>
      <PlaygroundForm busy={evaluate.isPending} error={evaluate.error} onSubmit={(r) => evaluate.mutate(r)} />
      {result && (
        <DataTable
          caption={`Flags in ${result.input.environment} for this context`}
          columns={["Flag", "Project", "Answer", "Variant", "Why"]}
          className="playground"
        >
          {result.features.map((feature) => (
            <tr key={feature.name} data-flag={feature.name}>
              <th scope="row">{feature.name}</th>
              <td>{feature.projectId}</td>
              <td>
                <span className={`pill ${feature.isEnabled ? "on" : "off"}`}>{feature.isEnabled ? "On" : "Off"}</span>
              </td>
              <td>{feature.variant.enabled ? feature.variant.name : <span className="muted">none</span>}</td>
              <td>
                <details>
                  <summary>{verdict(feature, result.input.environment)}</summary>
                  <StrategyExplanation feature={feature} />
                </details>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {result && result.features.length === 0 && <p className="muted">There are no flags in these projects.</p>}
    </>
  );
}
