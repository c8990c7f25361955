import type { Database } from "@vexil/db";
import {
  addChange,
  addFeatureDependency,
  addFeatureStrategy,
  moveChangeRequest,
  createEnvironment,
  createFeature,
  createSegment,
  createApiToken,
  createPersonalToken,
  createProject,
  createUser,
  deleteUser,
  enableEnvironmentInProject,
  listEnvironments,
  listProjects,
  listUsers,
  NameExistsError,
  type PasswordHasher,
  type Principal,
  RootRole,
  replaceFeatureEnvironmentVariants,
  setChangeRequestConfig,
  setFeatureEnvironmentEnabled,
} from "@vexil/services";
import type { Kysely } from "kysely";
import {
  DEMO_CHANGE_REQUESTS,
  DEMO_DEPENDENCY,
  DEMO_ENVIRONMENTS,
  DEMO_FEATURES,
  DEMO_PROJECT,
  DEMO_SEGMENT,
  DEMO_STRATEGIES,
  DEMO_USERS,
  type DemoUserName,
} from "./demo-dataset.ts";

export interface LoadedDemo {
  users: { username: string; role: string; token: string }[];
  /** A frontend token for browsers, on the demo project's development environment. */
  frontendToken: string;
  changeRequests: { id: number; environment: string; feature: string; author: string; state: string }[];
}

const DAY_MS = 24 * 3600_000;

/**
 * Loads the demo dataset through the services, as the API would write it: the same validation,
 * the same events, each change request moved by the users the four-eyes rules need. Refuses,
 * changing nothing, when the project or a demo user exists already.
 */
export async function loadDemo(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  password: string,
  progress: (line: string) => void,
): Promise<LoadedDemo> {
  if ((await listProjects(db)).some((p) => p.id === DEMO_PROJECT.id)) {
    throw new NameExistsError(`The project "${DEMO_PROJECT.id}" exists already, so the demo was loaded before; nothing was changed.`);
  }
  const taken = (await listUsers(db)).filter((u) => DEMO_USERS.some((d) => d.username === u.username)).map((u) => u.username);
  if (taken.length)
    throw new NameExistsError(`The demo users need their names, and ${taken.join(", ")} exist already; nothing was changed.`);

  // Users are created first and on their own: createUser hashes outside any transaction.
  progress(`Creating the users ${DEMO_USERS.map((u) => u.username).join(", ")}...`);
  const principals = {} as Record<DemoUserName, Principal & { kind: "user" }>;
  for (const demoUser of DEMO_USERS) {
    const user = await createUser(db, hasher, null, {
      username: demoUser.username,
      name: demoUser.name,
      password,
      rootRole: RootRole[demoUser.role],
    });
    // The demo acts as each user would through a session: the same permission and four-eyes checks.
    principals[demoUser.username] = {
      kind: "user",
      userId: user.id,
      username: demoUser.username,
      rootRole: RootRole[demoUser.role],
      via: "session",
    };
  }

  try {
    return await db.transaction().execute(async (trx) => {
      progress(`Creating the project "${DEMO_PROJECT.id}" in ${DEMO_ENVIRONMENTS.map((e) => e.name).join(", ")}...`);
      await createProject(trx, null, DEMO_PROJECT);
      const existing = new Set((await listEnvironments(trx)).map((e) => e.name));
      for (const env of DEMO_ENVIRONMENTS) {
        if (!existing.has(env.name)) await createEnvironment(trx, null, { name: env.name, type: env.type, sortOrder: env.sortOrder });
        await enableEnvironmentInProject(trx, null, { projectId: DEMO_PROJECT.id, environment: env.name });
      }

      progress(`Creating the features ${DEMO_FEATURES.map((f) => f.name).join(", ")} and their variants...`);
      for (const feature of DEMO_FEATURES) {
        await createFeature(trx, null, DEMO_PROJECT.id, { name: feature.name, type: feature.type, description: feature.description });
        for (const [environment, variants] of Object.entries(feature.variants)) {
          await replaceFeatureEnvironmentVariants(
            trx,
            null,
            { projectId: DEMO_PROJECT.id, featureName: feature.name, environment },
            variants,
          );
        }
        for (const environment of feature.enabledIn) {
          await setFeatureEnvironmentEnabled(trx, null, { projectId: DEMO_PROJECT.id, featureName: feature.name, environment }, true);
        }
      }

      progress("Adding strategies, the segment beta-testers and a dependency...");
      const segment = await createSegment(trx, null, { ...DEMO_SEGMENT, project: DEMO_PROJECT.id });
      for (const { feature, environment, strategy, withSegment } of DEMO_STRATEGIES) {
        const path = { projectId: DEMO_PROJECT.id, featureName: feature, environment };
        await addFeatureStrategy(trx, null, path, { ...strategy, segments: withSegment ? [segment.id] : [] });
      }
      await addFeatureDependency(
        trx,
        null,
        { projectId: DEMO_PROJECT.id, featureName: DEMO_DEPENDENCY.child },
        { feature: DEMO_DEPENDENCY.parent },
      );

      progress("Turning change requests on in staging (1 approval) and production (2 approvals)...");
      for (const env of DEMO_ENVIRONMENTS) {
        if (!env.changeRequests) continue;
        await setChangeRequestConfig(trx, null, DEMO_PROJECT.id, env.name, { changeRequestsEnabled: true, ...env.changeRequests });
      }

      progress(`Proposing, reviewing and applying ${DEMO_CHANGE_REQUESTS.length} change requests...`);
      const changeRequests: LoadedDemo["changeRequests"] = [];
      for (const cr of DEMO_CHANGE_REQUESTS) {
        const author = principals[cr.author];
        let request = await addChange(trx, author, {
          projectId: DEMO_PROJECT.id,
          environment: cr.environment,
          feature: cr.feature,
          action: cr.action,
          payload: cr.payload,
        });
        const { id } = request;
        for (const step of cr.steps) {
          if (step === "submit") request = await moveChangeRequest(trx, author, DEMO_PROJECT.id, id, { state: "In review" });
          else {
            const scheduledAt = step.inDays ? new Date(Date.now() + step.inDays * DAY_MS) : undefined;
            request = await moveChangeRequest(trx, principals[step.by], DEMO_PROJECT.id, id, {
              state: step.state,
              comment: step.comment,
              scheduledAt,
            });
          }
        }
        if (request.state !== cr.ends) throw new Error(`demo change request ${id} ended ${request.state}, not ${cr.ends}`);
        changeRequests.push({ id, environment: cr.environment, feature: cr.feature, author: cr.author, state: request.state });
      }

      progress("Creating a personal access token for each demo user...");
      const users: LoadedDemo["users"] = [];
      for (const demoUser of DEMO_USERS) {
        const token = await createPersonalToken(trx, principals[demoUser.username], {
          description: "vexil demo",
          expiresAt: new Date(Date.now() + 365 * DAY_MS),
        });
        users.push({ username: demoUser.username, role: demoUser.role, token: token.secret });
      }
      progress("Creating a frontend token for browsers...");
      const frontend = await createApiToken(trx, null, {
        tokenName: "demo-web",
        type: "frontend",
        projects: [DEMO_PROJECT.id],
        environment: "development",
      });
      return { users, changeRequests, frontendToken: frontend.secret };
    });
  } catch (error) {
    // All or nothing: the users made above go too, so that a second try starts clean.
    await db.transaction().execute(async (trx) => {
      for (const principal of Object.values(principals)) await deleteUser(trx, null, principal.userId);
    });
    throw error;
  }
}
