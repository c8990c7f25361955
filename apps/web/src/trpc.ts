import type { RouterInputs, RouterOutputs } from "@vexil/client";
import { createTrpcClient } from "@vexil/client/trpc";

/** The typed client: same origin, so the browser sends the session cookie with every call. */
export const trpc = createTrpcClient({ baseUrl: window.location.origin });

export type { RouterInputs, RouterOutputs };
