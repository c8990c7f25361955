import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { trpc } from "../trpc.ts";

/** Flags SDKs asked for that do not exist: typos, flags deleted too early, or not created yet (docs/usage.md#unknown-flags). */
export default function UnknownFlagsPage() {
  const flags = useQuery(trpc.usage.unknownFlags.queryOptions());
  return (
    <>
      <h1>Unknown flags</h1>
      <p>Flags that SDKs asked for in the last 24 hours but that do not exist, with the applications and environments that asked.</p>
      <FormError error={flags.error} />
      {flags.data && flags.data.unknownFlags.length === 0 ? (
        <p className="muted">No SDK asked for a flag that does not exist.</p>
      ) : (
        <DataTable caption="Unknown flags" columns={["Flag", "Last reported", "Asked by", "Last event"]} busy={!flags.data}>
          {flags.data?.unknownFlags.map((flag) => (
            <tr key={flag.name} data-flag={flag.name}>
              <td>{flag.name}</td>
              <td>{new Date(flag.lastSeenAt).toLocaleString()}</td>
              <td>
                <ul>
                  {flag.reports.map((r) => (
                    <li key={r.appName}>
                      {r.appName} in {r.environments.map((e) => e.environment).join(", ")}
                    </li>
                  ))}
                </ul>
              </td>
              <td>{flag.lastEventAt ? new Date(flag.lastEventAt).toLocaleString() : "none"}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
