import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { AppRouter, RouterInputs, RouterOutputs } from "@vexil/client";
import { createTrpcClient } from "@vexil/client/trpc";
import { isUnauthenticated } from "./describe-error.ts";
import { setSessionUser } from "./session.ts";

/** The typed client, for writes: same origin, so the browser sends the session cookie with every call. */
export const trpcClient = createTrpcClient({ baseUrl: window.location.origin });

// A 401 anywhere means the session is over (expired, revoked, logged out elsewhere): back to login.
const onError = (error: unknown) => {
  if (isUnauthenticated(error)) setSessionUser(null);
};
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

/**
 * Reads through TanStack Query, with keys derived from the procedure and its input, so they
 * cannot drift: `useQuery(trpc.features.get.queryOptions(input))`, and
 * `invalidateQueries(trpc.features.get.queryFilter(input))` or `trpc.changeRequests.pathFilter()`.
 */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

export type { RouterInputs, RouterOutputs };
