// Logs in, posts a banner, shapes the variants of a feature and reads them back (over REST and
// over tRPC), then lists your pending change requests. Run it against a server:
//   VEXIL_URL=http://127.0.0.1:4242 VEXIL_PASSWORD=<admin password> pnpm --filter @vexil/example-typed-client start
import { createRestClient, createTrpcClient, VexilApiError } from "@vexil/client";

const baseUrl = process.env.VEXIL_URL ?? "http://127.0.0.1:4242";
const vexil = createRestClient({ baseUrl });

const me = await vexil.auth.login({
  username: process.env.VEXIL_USERNAME ?? "admin",
  password: process.env.VEXIL_PASSWORD ?? "unleash4all",
});
if (me.passwordChangeRequired) {
  // A session of the default admin password may only change it.
  console.error("The admin password is still the default one: change it in the console first, then run this with VEXIL_PASSWORD.");
  process.exit(1);
}
console.log(`logged in as ${me.username}`);

const banner = await vexil.banners.create({ message: "Maintenance at **noon**", variant: "warning" });
console.log(`banner ${banner.id} created at ${banner.createdAt}`);

try {
  await vexil.features.create({ projectId: "default", name: "checkout" });
} catch (error) {
  // Every failure is a VexilApiError: status, name, message and the id the server logged.
  if (!(error instanceof VexilApiError && error.name === "NameExistsError")) throw error;
}
const where = { projectId: "default", featureName: "checkout", environment: "development" };
await vexil.features.replaceVariants({ ...where, variants: [{ name: "blue" }, { name: "green", weightType: "fix", weight: 200 }] });

const { variants } = await vexil.features.variants(where);
console.log(`variants: ${variants.map((v) => `${v.name} ${v.weight}`).join(", ")}`);

// The same procedures over tRPC, with the session the login started.
const trpc = createTrpcClient({ baseUrl, sessionCookie: vexil.sessionCookie });
const again = await trpc.features.variants.query(where);
console.log(`over tRPC too: ${again.variants.length} variants`);

const pending = await vexil.changeRequests.pending({ projectId: "default" });
console.log(`pending change requests: ${pending.length}`);

await vexil.auth.logout();
