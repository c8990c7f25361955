import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { isUnauthenticated } from "./describe-error.ts";
import { Routes } from "./routes.tsx";
import { setSessionUser } from "./session.ts";
import "./styles.css";

// A 401 anywhere means the session is over (expired, revoked, logged out elsewhere): back to login.
const onError = (error: unknown) => {
  if (isUnauthenticated(error)) setSessionUser(null);
};
const client = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <Routes />
    </QueryClientProvider>
  </StrictMode>,
);
