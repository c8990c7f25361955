import { useQueryClient } from "@tanstack/react-query";
import { RootRole } from "@vexil/client/root-roles";
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { BannerBar } from "../banners/banner-bar.tsx";
import { InboxCount } from "../change-request-inbox/inbox-count.tsx";
import { LiveUpdates } from "../live/live-state.tsx";
import { isAdmin, ROLE_NAMES, type SessionUser, setSessionUser } from "../session.ts";
import { trpcClient } from "../trpc.ts";

const INBOX = "/change-requests/inbox";

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  // A change request's page lives under its project's path but belongs to the change requests; the inbox is its own entry.
  const section = location.startsWith(INBOX) ? INBOX : location.includes("/change-requests") ? "/change-requests" : location;
  const current = section === href || (section !== INBOX && section.startsWith(`${href}/`));
  return (
    <Link href={href} aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}

/** Every page after login: the banner bar, the navigation, the user and the way out. */
export function Shell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const client = useQueryClient();
  const logout = async () => {
    // The session ends on the server whatever happens here; the page forgets it either way.
    await trpcClient.auth.logout.mutate().catch(() => undefined);
    setSessionUser(null);
    client.clear();
  };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <BannerBar />
      <header className="top">
        <span className="brand">Vexil</span>
        <nav aria-label="Main">
          <NavLink href="/projects">Projects</NavLink>
          <NavLink href="/change-requests">Change requests</NavLink>
          <NavLink href="/segments">Segments</NavLink>
          <NavLink href="/change-requests/inbox">
            Inbox
            <InboxCount />
          </NavLink>
          <NavLink href="/playground">Playground</NavLink>
          <NavLink href="/unknown-flags">Unknown flags</NavLink>
          {isAdmin(user) && (
            <>
              <NavLink href="/banners">Banners</NavLink>
              <NavLink href="/users">Users</NavLink>
              <NavLink href="/groups">Groups</NavLink>
              <NavLink href="/tokens">API tokens</NavLink>
              <NavLink href="/events">Event log</NavLink>
              <NavLink href="/integrations">Integrations</NavLink>
            </>
          )}
        </nav>
        <LiveUpdates />
        <span className="who">
          {user.name ?? user.username} ({ROLE_NAMES[user.rootRole ?? RootRole.Viewer]})
        </span>
        <button type="button" className="secondary" onClick={logout}>
          Log out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
