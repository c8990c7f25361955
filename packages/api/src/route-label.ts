import type { ServerResponse } from "node:http";

// Set by whatever matched the request; read when the response ends (request metrics, logs).
const labels = new WeakMap<ServerResponse, string>();

/** Names the route that answers `res`: its pattern (`/api/admin/projects/{projectId}`), never the raw path. */
export function setRouteLabel(res: ServerResponse, label: string): void {
  labels.set(res, label);
}

/** The route that answered, or undefined when none matched (a 404, a 405). */
export function routeLabelOf(res: ServerResponse): string | undefined {
  return labels.get(res);
}
