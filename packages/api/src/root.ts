import { apiTokensRouter } from "./router/api-tokens.ts";
import { authRouter } from "./router/auth.ts";
import { environmentsRouter } from "./router/environments.ts";
import { usersRouter } from "./router/users.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  environments: environmentsRouter,
  auth: authRouter,
  users: usersRouter,
  apiTokens: apiTokensRouter,
});

export type AppRouter = typeof appRouter;
