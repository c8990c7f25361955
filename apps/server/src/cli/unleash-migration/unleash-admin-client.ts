import { request } from "undici";

/** Unleash refused a call or could not be reached: the message names the path and what Unleash said. */
export class UnleashUnreachable extends Error {}

export interface UnleashAdminClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

const TIMEOUT_MS = 60_000;

/** Unleash's admin API at `url` with an admin token, through undici; any answer but a 2xx is an UnleashUnreachable. */
export function unleashAdminClient(url: string, token: string): UnleashAdminClient {
  const base = url.replace(/\/+$/, "");
  async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    let reply: Awaited<ReturnType<typeof request>>;
    try {
      reply = await request(`${base}${path}`, {
        method,
        headers: {
          authorization: token,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (error) {
      throw new UnleashUnreachable(`cannot reach Unleash at ${base}: ${(error as Error).message}`);
    }
    const text = await reply.body.text();
    if (reply.statusCode < 200 || reply.statusCode >= 300) {
      let said = text.slice(0, 300);
      try {
        said = (JSON.parse(text) as { message?: string }).message ?? said;
      } catch {
        // Not JSON: the start of the text says enough.
      }
      const hint = reply.statusCode === 401 || reply.statusCode === 403 ? " (is --token an admin token of that Unleash?)" : "";
      throw new UnleashUnreachable(`Unleash answered ${reply.statusCode} to ${method} ${path}: ${said}${hint}`);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UnleashUnreachable(`Unleash's answer to ${method} ${path} is not JSON (is --url the address of an Unleash?)`);
    }
  }
  return { get: (path) => call("GET", path), post: (path, body) => call("POST", path, body) };
}
