import { type ClientDeltaEvent, type HydrationEvent, ValidationError } from "@vexil/services";

const MAX_QUERY_VALUE = 100;

/** The `project` and `namePrefix` query parameters that narrow what the client API serves. */
export interface ClientQuery {
  projects: string[];
  namePrefix: string | undefined;
}

export function clientQueryFrom(url: string | undefined): ClientQuery {
  // Most SDK polls carry no query string: nothing to parse.
  if (!url?.includes("?")) return { projects: [], namePrefix: undefined };
  const params = new URL(url ?? "/", "http://x").searchParams;
  const projects = params.getAll("project");
  const namePrefix = params.get("namePrefix") ?? undefined;
  for (const [name, value] of [...projects.map((p) => ["project", p] as const), ["namePrefix", namePrefix ?? ""] as const]) {
    if (value.length > MAX_QUERY_VALUE) {
      throw new ValidationError(`"${name}" may be at most ${MAX_QUERY_VALUE} characters.`, [{ path: name, message: "too long" }]);
    }
  }
  return { projects, namePrefix };
}

/** One key per distinct narrowing, so that streams asking the same share one rendering. */
export const clientQueryKey = (query: ClientQuery) => JSON.stringify([[...query.projects].sort(), query.namePrefix ?? ""]);

const isNarrowed = (query: ClientQuery) => query.projects.length > 0 || !!query.namePrefix;

function servesFeature(query: ClientQuery, project: string, name: string): boolean {
  return (query.projects.length === 0 || query.projects.includes(project)) && name.startsWith(query.namePrefix ?? "");
}

/** The events a narrowed query is served: features outside it left out, segments kept. */
export function narrowEvents(events: ClientDeltaEvent[], query: ClientQuery): ClientDeltaEvent[] {
  if (!isNarrowed(query)) return events;
  return events.filter((event) => {
    if (event.type === "feature-updated") return servesFeature(query, event.feature.project, event.feature.name);
    if (event.type === "feature-removed") return servesFeature(query, event.project, event.featureName);
    return true;
  });
}

export function narrowHydration(hydration: HydrationEvent, query: ClientQuery): HydrationEvent {
  if (!isNarrowed(query)) return hydration;
  return { ...hydration, features: hydration.features.filter((f) => servesFeature(query, f.project, f.name)) };
}
