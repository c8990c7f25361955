import { lazy, Suspense } from "react";
import { Redirect, Route, Switch } from "wouter";
import { BannersPage } from "./banners/banners-page.tsx";
import { InboxPage } from "./change-request-inbox/inbox-page.tsx";
import { ChangeRequestPage } from "./change-requests/change-request-page.tsx";
import { PendingPage } from "./change-requests/pending-page.tsx";
import { EventsPage } from "./events/events-page.tsx";
import { ArchivePage } from "./feature-grid/archive-page.tsx";
import { GroupsPage } from "./groups/groups-page.tsx";
import { FeaturePage } from "./features/feature-page.tsx";
import { IntegrationsPage } from "./integrations/integrations-page.tsx";
import { Shell } from "./layout/shell.tsx";
import { LoginPage } from "./login/login-page.tsx";
import { PlaygroundPage } from "./playground/playground-page.tsx";
import { ProjectAccessPage } from "./project-access/project-access-page.tsx";
import { ProjectPage } from "./projects/project-page.tsx";
import { ProjectsPage } from "./projects/projects-page.tsx";
import { isAdmin, useSessionUser } from "./session.ts";
import { TokensPage } from "./tokens/tokens-page.tsx";
import { UsersPage } from "./users/users-page.tsx";

// Pages that are not the first load's come as their own chunks.
const SegmentsPage = lazy(() => import("./segments/segments-page.tsx"));
const UnknownFlagsPage = lazy(() => import("./usage/unknown-flags-page.tsx"));

/** The pages; the server answers each of these paths with the app (apps/server/src/console-app.ts lists their prefixes). */
export function Routes() {
  const user = useSessionUser();
  if (!user) return <LoginPage />;
  const admin = isAdmin(user);
  return (
    <Shell user={user}>
      <Switch>
        <Route path="/projects" component={ProjectsPage} />
        <Route path="/projects/:projectId">{(p) => <ProjectPage projectId={p.projectId} />}</Route>
        <Route path="/projects/:projectId/archive">{(p) => <ArchivePage projectId={p.projectId} />}</Route>
        <Route path="/projects/:projectId/access">{(p) => <ProjectAccessPage projectId={p.projectId} />}</Route>
        <Route path="/projects/:projectId/features/:featureName">
          {(p) => <FeaturePage projectId={p.projectId} featureName={p.featureName} />}
        </Route>
        <Route path="/projects/:projectId/change-requests/:id">
          {(p) => <ChangeRequestPage projectId={p.projectId} id={Number(p.id)} />}
        </Route>
        <Route path="/change-requests" component={PendingPage} />
        <Route path="/segments">
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <SegmentsPage />
          </Suspense>
        </Route>
        <Route path="/change-requests/inbox" component={InboxPage} />
        <Route path="/playground" component={PlaygroundPage} />
        <Route path="/unknown-flags">
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <UnknownFlagsPage />
          </Suspense>
        </Route>
        {admin && <Route path="/banners" component={BannersPage} />}
        {admin && <Route path="/users" component={UsersPage} />}
        {admin && <Route path="/groups" component={GroupsPage} />}
        {admin && <Route path="/tokens" component={TokensPage} />}
        {admin && <Route path="/events" component={EventsPage} />}
        {admin && <Route path="/integrations" component={IntegrationsPage} />}
        <Route path="/login">
          <Redirect to="/projects" />
        </Route>
        <Route path="/">
          <Redirect to="/projects" />
        </Route>
        <Route>
          <h1>Not found</h1>
          <p>There is no page here.</p>
        </Route>
      </Switch>
    </Shell>
  );
}
