import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { type EnvironmentExposures, exposuresByHour, HOURS, sum } from "./exposures-by-hour.ts";
import { usageQueries } from "./usage-queries.ts";
import { UsageChart } from "./usage-chart.tsx";

const hourLabel = (seconds: number) => new Date(seconds * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" });

/** How SDKs used a flag: exposures by hour over 48 hours per environment, and the applications that reported it (docs/usage.md). */
export default function UsageSection({ featureName }: { featureName: string }) {
  const queries = usageQueries(featureName);
  const raw = useQuery(queries.raw);
  const usage = useQuery(queries.usage);
  const applications = useQuery(queries.applications);
  const environments = raw.data ? exposuresByHour(raw.data.data) : [];
  const seen = new Set(usage.data?.seenApplications ?? []);
  const apps = (applications.data?.applications ?? []).filter((a) => seen.has(a.appName));
  const unregistered = [...seen].filter((name) => !apps.some((a) => a.appName === name));
  return (
    <section className="card" aria-labelledby="usage">
      <h2 id="usage">Usage</h2>
      <FormError error={raw.error ?? usage.error ?? applications.error} />
      <h3>Exposures by hour, last {HOURS} hours</h3>
      {raw.data && environments.length === 0 && <p className="muted">No SDK reported this flag in the last {HOURS} hours.</p>}
      {environments.map((env) => (
        <EnvironmentUsage key={env.environment} exposures={env} />
      ))}
      <h3>Applications</h3>
      {usage.data && seen.size === 0 ? (
        <p className="muted">No application reported this flag.</p>
      ) : (
        <DataTable
          caption="Applications that reported this flag"
          columns={["Application", "SDK", "Version", "Environment", "Instance", "Last seen"]}
          busy={!usage.data || !applications.data}
        >
          {apps.flatMap((app) =>
            app.instances.map((instance) => {
              const [sdk, version] = splitSdkVersion(instance.sdkVersion);
              return (
                <tr key={`${app.appName}/${instance.instanceId}`}>
                  <td>{app.appName}</td>
                  <td>{sdk}</td>
                  <td>{version}</td>
                  <td>{instance.environment}</td>
                  <td>{instance.instanceId}</td>
                  <td>{new Date(instance.lastSeen).toLocaleString()}</td>
                </tr>
              );
            }),
          )}
          {unregistered.map((name) => (
            <tr key={name}>
              <td>{name}</td>
              <td colSpan={5} className="muted">
                Reported metrics without registering
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

/** `unleash-client-node:6.12.1` as its SDK and its version; an SDK that says no version gets dashes. */
function splitSdkVersion(sdkVersion: string | null): [string, string] {
  if (!sdkVersion) return ["unknown", "unknown"];
  const at = sdkVersion.lastIndexOf(":");
  return at < 0 ? [sdkVersion, "unknown"] : [sdkVersion.slice(0, at), sdkVersion.slice(at + 1)];
}

function EnvironmentUsage({ exposures }: { exposures: EnvironmentExposures }) {
  const variants = [...exposures.variants];
  const totals = [`${sum(exposures.yes)} yes`, `${sum(exposures.no)} no`, ...variants.map(([name, counts]) => `${sum(counts)} ${name}`)];
  const summary = `${exposures.environment}: ${totals.join(", ")} over the last ${HOURS} hours`;
  const reported = exposures.hours.map((_, i) => i).filter((i) => (exposures.yes[i] ?? 0) + (exposures.no[i] ?? 0) > 0);
  return (
    <figure className="usage" data-environment={exposures.environment}>
      <figcaption>{summary}</figcaption>
      <div role="img" aria-label={`Chart of exposures by hour in ${summary}; the numbers are in the table below.`}>
        <UsageChart exposures={exposures} />
      </div>
      <details>
        <summary>Exposures by hour in {exposures.environment} as a table</summary>
        <DataTable
          caption={`Exposures by hour in ${exposures.environment}, hours with reports only`}
          columns={["Hour", "Yes", "No", ...variants.map(([name]) => `Variant ${name}`)]}
        >
          {reported.map((i) => (
            <tr key={exposures.hours[i]}>
              <td>{hourLabel(exposures.hours[i] ?? 0)}</td>
              <td>{exposures.yes[i]}</td>
              <td>{exposures.no[i]}</td>
              {variants.map(([name, counts]) => (
                <td key={name}>{counts[i]}</td>
              ))}
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
