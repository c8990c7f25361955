import type { ServerResponse } from "node:http";

// Set by whatever matched the request; read when the response ends (request metrics, logs). A
// property of the response rather than a WeakMap entry: every request would otherwise add one
// entry that the collector must clear again.
const LABEL = Symbol("vexil.routeLabel");
type Labelled = ServerResponse & { [LABEL]?: string };

/** Names the route that answers `res`: its pattern (`/api/admin/projects/{projectId}`), never the raw path. */
export function setRouteLabel(res: ServerResponse, label: string): void {
  (res as Labelled)[LABEL] = label;
}

/** The route that answered, or undefined when none matched (a 404, a 405). */
export function routeLabelOf(res: ServerResponse): string | undefined {
  return (res as Labelled)[LABEL];
}
