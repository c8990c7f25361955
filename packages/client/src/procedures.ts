import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
// Types only: the client never loads server code.
import type { AppRouter } from "@vexil/api";

export type { AppRouter };

/** What each procedure takes, as the router's zod schemas accept it, by group and name. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** What each procedure answers, as the router's zod schemas describe it, by group and name. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
