// An app outside the repository: the four operations of the admin API over REST and over tRPC,
// through the packed @vexil/client alone. It prints what it got as one JSON line.
import { createRestClient, createTrpcClient, RootRole, toVexilApiError, VexilApiError, type RouterOutputs } from "@vexil/client";

const baseUrl = process.env.VEXIL_URL ?? "http://127.0.0.1:4242";
const password = process.env.VEXIL_PASSWORD ?? "";
const where = { projectId: "default", featureName: "checkout", environment: "development" };
type Pending = RouterOutputs["changeRequests"]["pending"];
const summary = (pending: Pending) => pending.map((cr) => ({ id: cr.id, state: cr.state, environment: cr.environment }));

// The four operations over REST, in a session the login starts.
const rest = createRestClient({ baseUrl });
const restUser = await rest.auth.login({ username: "admin", password });
const restBanner = await rest.banners.create({ message: "Posted over REST", variant: "warning" });
const restVariants = await rest.features.variants(where);
const restPending = await rest.changeRequests.pending({ projectId: "default" });

// The same four over tRPC, in the session the REST login started.
const trpc = createTrpcClient({ baseUrl, sessionCookie: rest.sessionCookie });
const trpcUser = await trpc.auth.login.mutate({ username: "admin", password });
const trpcBanner = await trpc.banners.create.mutate({ message: "Posted over tRPC", sticky: true });
const trpcVariants = await trpc.features.variants.query(where);
const trpcPending = await trpc.changeRequests.pending.query({ projectId: "default" });

// A failure, as each transport reports it.
const restFailure = await rest.features.variants({ ...where, featureName: "ghost" }).catch((error: unknown) => error);
const trpcFailure = await trpc.features.variants.query({ ...where, featureName: "ghost" }).catch(toVexilApiError);
const failure = (error: unknown) => (error instanceof VexilApiError ? [error.status, error.name] : String(error));

console.log(
  JSON.stringify({
    users: [restUser.username, trpcUser.username],
    admins: [restUser.rootRole === RootRole.Admin, trpcUser.rootRole === RootRole.Admin],
    banners: [restBanner, trpcBanner].map((b) => ({ id: b.id, message: b.message, variant: b.variant, sticky: b.sticky })),
    variants: [restVariants, trpcVariants].map((v) => v.variants.map((variant) => [variant.name, variant.weight])),
    pending: [summary(restPending), summary(trpcPending)],
    failures: [failure(restFailure), failure(trpcFailure)],
  }),
);
