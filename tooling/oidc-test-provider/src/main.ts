// The test identity provider on a fixed port, to try single sign-on by hand (README, "Single sign-on"):
// `npx -y pnpm@10.34.9 --filter @vexil/oidc-test-provider start`. Not for production: anyone signs in as any account.
import { startTestProvider } from "./test-provider.ts";

const port = Number(process.env.PORT || 9400);
const vexil = (process.env.VEXIL_URL || "http://127.0.0.1:4242").replace(/\/+$/, "");
const idp = await startTestProvider({ port });
idp.register(`${vexil}/auth/oidc/callback`);
idp.accounts.set("ada", {
  sub: "ada",
  email: "ada@example.com",
  email_verified: true,
  name: "Ada Admin",
  preferred_username: "ada",
  groups: ["vexil-admins"],
});
idp.accounts.set("ed", {
  sub: "ed",
  email: "ed@example.com",
  email_verified: true,
  name: "Ed Editor",
  preferred_username: "ed",
  groups: ["vexil-editors"],
});
idp.accounts.set("vi", { sub: "vi", email: "vi@example.com", email_verified: true, name: "Vi Viewer", preferred_username: "vi" });

const settings = [
  `OIDC_ISSUER_URL=${idp.issuer}`,
  `OIDC_CLIENT_ID=${idp.clientId}`,
  `OIDC_CLIENT_SECRET=${idp.clientSecret}`,
  `OIDC_REDIRECT_URL=${vexil}/auth/oidc/callback`,
  `OIDC_SCOPES="openid email profile groups"`,
  "OIDC_ROLE_CLAIM=groups",
  `OIDC_ROLE_MAP="vexil-admins=Admin,vexil-editors=Editor"`,
  "OIDC_AUTO_CREATE=true",
  `OIDC_PROVIDER_NAME="Test IdP"`,
];
process.stdout.write(
  `Test identity provider at ${idp.issuer} (anyone signs in as any account: for trying single sign-on only).\n` +
    `Start Vexil with:\n  ${settings.join(" \\\n  ")} \\\n  npx -y pnpm@10.34.9 start\n` +
    "Accounts (type the username; there is no password): ada (group vexil-admins), ed (vexil-editors), vi (no group).\n",
);
const stop = () => void idp.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
