import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { FormError } from "../form-error.tsx";
import { setSessionUser } from "../session.ts";
import { trpc, trpcClient } from "../trpc.ts";

/** Where single sign-on brings the browser back: the page it was on, or the console's start. */
function returnTo(): string {
  const here = `${window.location.pathname}${window.location.search}`;
  return here.startsWith("/login") ? "/" : here;
}

/**
 * The ways in the server offers (docs/oidc.md#the-console): "Sign in with <provider>" where single
 * sign-on is set up, and the username and password form unless password login is off. Back from
 * the provider the browser holds a session cookie the page cannot read, so it asks who that is.
 */
export function LoginPage() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const options = useQuery(trpc.oidc.loginOptions.queryOptions());
  const oidc = options.data?.oidc ?? null;
  const passwordOn = options.data?.password !== false;
  // Asked afresh on every visit, never from a cache: after a logout the answer is a 401, which says nothing to show.
  useEffect(() => {
    if (!oidc) return;
    let shown = true;
    trpcClient.users.current.query().then(
      ({ user }) => shown && setSessionUser(user),
      () => {},
    );
    return () => {
      shown = false;
    };
  }, [oidc]);
  const [newPassword, setNewPassword] = useState("");
  const login = useMutation({
    mutationFn: () => trpcClient.auth.login.mutate({ username, password }),
    // A session of the default admin password may only change it (docs/auth.md#passwords).
    onSuccess: (user) => !user.passwordChangeRequired && setSessionUser(user),
  });
  const change = useMutation({
    mutationFn: async () => {
      await trpcClient.users.changeOwnPassword.mutate({ password: newPassword, oldPassword: password });
      return (await trpcClient.users.current.query()).user;
    },
    onSuccess: (user) => setSessionUser(user),
  });
  if (login.data?.passwordChangeRequired)
    return (
      <main id="main" className="login">
        <section className="card login-card" aria-labelledby="change-title">
          <h1 id="change-title">Choose a new password</h1>
          <p>You logged in with the default password; choose your own before going on.</p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              change.mutate();
            }}
          >
            <label>
              New password
              <input
                name="new-password"
                type="password"
                autoComplete="new-password"
                required
                value={newPassword}
                onChange={(e) => setNewPassword(e.target.value)}
              />
            </label>
            <FormError error={change.error} />
            <button type="submit" disabled={change.isPending}>
              {change.isPending ? "Saving…" : "Set password"}
            </button>
          </form>
        </section>
      </main>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <main id="main" className="login">
      <section className="card login-card" aria-labelledby="login-title">
        <h1 id="login-title">Log in to Vexil</h1>
        {oidc && (
          <p>
            <a className="button" href={`${oidc.loginPath}?returnTo=${encodeURIComponent(returnTo())}`}>
              Sign in with {oidc.name}
            </a>
          </p>
        )}
        {oidc && passwordOn && <p className="muted">or with a username and password:</p>}
        {passwordOn ? (
          <form onSubmit={submit}>
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
        ) : (
          <p className="muted">Password login is turned off on this server.</p>
        )}
      </section>
    </main>
  );
}
