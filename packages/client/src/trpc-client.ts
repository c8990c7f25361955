import { createTRPCClient, httpLink, TRPCClientError, type TRPCClient } from "@trpc/client";
import type { AppRouter } from "./procedures.ts";
import { VexilApiError } from "./vexil-api-error.ts";

export interface TrpcClientOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:4242`; the client talks to `/trpc` there. */
  baseUrl: string;
  /** An admin API token or a personal access token. */
  token?: string;
  /** A session instead of a token: the `Cookie` value, e.g. a REST client's `sessionCookie`. */
  sessionCookie?: string;
}

/** A typed tRPC client for `/trpc`: `await trpc.features.variants.query({...})`. */
export function createTrpcClient(options: TrpcClientOptions): TRPCClient<AppRouter> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = options.token;
  else if (options.sessionCookie) headers.cookie = options.sessionCookie;
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${options.baseUrl.replace(/\/+$/, "")}/trpc`, headers })],
  });
}

/**
 * The same `VexilApiError` a REST call throws, from a tRPC client's error; the server puts the
 * status and the error body into every tRPC error's `data`.
 */
export function toVexilApiError(error: unknown): VexilApiError | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { httpStatus?: number; id?: string; name?: string; details?: [] } | undefined;
  if (typeof data?.httpStatus !== "number" || typeof data.name !== "string") return undefined;
  return new VexilApiError(data.httpStatus, { id: data.id ?? "", name: data.name, message: error.message, details: data.details });
}
