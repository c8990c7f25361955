import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { FormError } from "../form-error.tsx";
import { setSessionUser } from "../session.ts";
import { trpcClient } from "../trpc.ts";

/** Username (or e-mail) and password; the server answers with the user and sets the session cookie. */
export function LoginPage() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const login = useMutation({
    mutationFn: () => trpcClient.auth.login.mutate({ username, password }),
    onSuccess: (user) => setSessionUser(user),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <main id="main" className="login">
      <form className="card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Log in to Vexil</h1>
        <label>
          Username or e-mail
          <input name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <FormError error={login.error} />
        <button type="submit" disabled={login.isPending}>
          {login.isPending ? "Logging in…" : "Log in"}
        </button>
      </form>
    </main>
  );
}
