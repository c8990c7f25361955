import { environmentsRouter } from "./router/environments.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  environments: environmentsRouter,
});

export type AppRouter = typeof appRouter;
