import { type Dispatcher, request } from "undici";
import type { RouterInputs, RouterOutputs } from "./procedures.ts";
import type { RestRoute } from "./rest-route.ts";
import { REST_ROUTES } from "./rest-routes.ts";
import { VexilApiError } from "./vexil-api-error.ts";

export interface RestClientOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:4242`. */
  baseUrl: string;
  /** An admin API token or a personal access token; without one, call `auth.login` first. */
  token?: string;
  /** An undici dispatcher (an Agent, a Pool, a ProxyAgent); undici's global one when absent. */
  dispatcher?: Dispatcher;
}

// Procedures whose input has no required field may be called with none.
// biome-ignore lint/complexity/noBannedTypes: `{}` asks whether every field of the input is optional.
type Args<I> = {} extends I ? [input?: I] : [input: I];

/** A typed method for every operation, grouped as the router is: `client.banners.create({...})`. */
export type RestClient = {
  readonly [G in keyof RouterInputs]: {
    readonly [P in keyof RouterInputs[G]]: (...args: Args<RouterInputs[G][P]>) => Promise<RouterOutputs[G][P]>;
  };
} & {
  /** The `Cookie` value of the session `auth.login` started, until `auth.logout` ends it. */
  readonly sessionCookie: string | undefined;
};

const SESSION_COOKIE = "vexil-session";

/**
 * A REST client on undici: every failure the server answers is thrown as a `VexilApiError`, and
 * a login's session cookie goes with every later call unless a token was given.
 */
export function createRestClient(options: RestClientOptions): RestClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  let sessionCookie: string | undefined;

  function keepSession(setCookie: string | string[] | undefined): void {
    for (const header of [setCookie ?? []].flat()) {
      const [pair = "", ...attributes] = header.split(";");
      const at = pair.indexOf("=");
      if (pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      sessionCookie = value && !expired ? `${SESSION_COOKIE}=${value}` : undefined;
    }
  }

  async function call(route: RestRoute, input: Record<string, unknown> = {}): Promise<unknown> {
    const fields = { ...input };
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = fields[name];
      if (value === undefined || value === null) throw new TypeError(`${route.method} ${route.path} needs "${name}".`);
      delete fields[name];
      return encodeURIComponent(String(value));
    });
    const headers: Record<string, string> = { accept: "application/json" };
    if (options.token) headers.authorization = options.token;
    else if (sessionCookie) headers.cookie = sessionCookie;
    let body: string | undefined;
    if (route.hasBody) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(route.body ? fields[route.body] : fields);
    }

    const query = new URLSearchParams();
    // A GET sends what the path did not take as query parameters (the client API's project, namePrefix).
    if (route.method === "GET") {
      for (const [name, value] of Object.entries(fields)) for (const v of [value ?? []].flat()) query.append(name, String(v));
    }
    const search = query.size ? `?${query}` : "";
    const res = await request(baseUrl + path + search, { method: route.method, headers, body, dispatcher: options.dispatcher });
    keepSession(res.headers["set-cookie"]);
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.statusCode >= 400) throw errorFrom(res.statusCode, json, text);
    return json;
  }

  const client: Record<string, unknown> = {};
  for (const [group, routes] of Object.entries(REST_ROUTES)) {
    client[group] = Object.fromEntries(
      Object.entries(routes).map(([name, route]) => [name, (input?: Record<string, unknown>) => call(route, input)]),
    );
  }
  Object.defineProperty(client, "sessionCookie", { get: () => sessionCookie, enumerable: true });
  return client as RestClient;
}

function errorFrom(status: number, json: unknown, text: string): VexilApiError {
  const body = json as { id?: unknown; name?: unknown; message?: unknown } | undefined;
  if (body && typeof body.name === "string" && typeof body.message === "string") {
    return new VexilApiError(status, { ...(body as { name: string; message: string }), id: typeof body.id === "string" ? body.id : "" });
  }
  // Not the server's error body: something between us and it (a proxy) answered.
  return new VexilApiError(status, { id: "", name: "HttpError", message: `HTTP ${status}: ${text.slice(0, 200)}` });
}
