import { test } from "uvu";
import * as assert from "uvu/assert";
import { CHROMIUM, checkPage, collectProblems, launchChromium, logIn, SCREENSHOTS } from "./support/browser.ts";
import { startTestProvider } from "@vexil/oidc-test-provider";
import { startTestServer } from "./support/test-server.ts";

// A person signs in to the console through the identity provider (docs/oidc.md#the-console), in Chromium.
const idp = await startTestProvider();
const env = {
  OIDC_ISSUER_URL: idp.issuer,
  OIDC_CLIENT_ID: idp.clientId,
  OIDC_CLIENT_SECRET: idp.clientSecret,
  // Vexil's port is known once it listens (on port 0): set in its settings then.
  OIDC_REDIRECT_URL: "http://127.0.0.1:1/auth/oidc/callback",
  OIDC_SCOPES: "openid email profile groups",
  OIDC_PROVIDER_NAME: "Test IdP",
  OIDC_ROLE_CLAIM: "groups",
  OIDC_ROLE_MAP: "flag-editors=Editor",
  OIDC_AUTO_CREATE: "true",
  ADMIN_PASSWORD: "the admin password of these tests",
};
const srv = await startTestServer(env);
const ssoOnly = await startTestServer({ ...env, PASSWORD_LOGIN: "false" });
for (const server of [srv, ssoOnly])
  (server.app.deps.oidc?.settings as { redirectUrl: string }).redirectUrl = `${server.url}/auth/oidc/callback`;
idp.register(`${srv.url}/auth/oidc/callback`, `${ssoOnly.url}/auth/oidc/callback`);
idp.accounts.set("dana", {
  sub: "dana-sub",
  email: "dana@example.com",
  email_verified: true,
  name: "Dana Scully",
  groups: ["flag-editors"],
});
const browser = CHROMIUM ? await launchChromium() : undefined;

if (browser) {
  console.log(`console screenshots: ${SCREENSHOTS}`);

  test("the login page offers the provider; signing in there creates the user with the mapped role and lands where they were", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const problems = collectProblems(page);
    await page.goto(`${srv.url}/projects`);
    const sso = page.getByRole("link", { name: "Sign in with Test IdP" });
    await sso.waitFor();
    await page.getByLabel("Username or e-mail").waitFor();
    await checkPage(page, "login-with-sso");
    await sso.click();

    await page.getByRole("heading", { name: "Test identity provider" }).waitFor();
    await page.getByLabel("Username").fill("dana");
    await page.getByRole("button", { name: "Sign in" }).click();

    await page.getByRole("button", { name: "Log out" }).waitFor();
    assert.is(new URL(page.url()).pathname, "/projects");
    await page.getByText("Dana Scully (Editor)").waitFor();
    await checkPage(page, "signed-in-with-sso");
    const user = await srv.db.kysely.selectFrom("users").selectAll().where("oidc_subject", "=", "dana-sub").executeTakeFirstOrThrow();
    assert.equal([user.email, user.root_role, user.oidc_issuer], ["dana@example.com", 2, idp.issuer]);

    // Logged out, the page does not take the ended session for a signed-in one.
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("link", { name: "Sign in with Test IdP" }).waitFor();
    assert.equal(problems, []);
  });

  test("with password login off, the login page offers the provider alone", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const problems = collectProblems(page);
    await page.goto(`${ssoOnly.url}/`);
    await page.getByText("Password login is turned off on this server.").waitFor();
    await page.getByRole("link", { name: "Sign in with Test IdP" }).waitFor();
    assert.is(await page.getByLabel("Password").count(), 0);
    await checkPage(page, "login-sso-only");
    assert.equal(problems, []);
  });

  test("an Admin sees on the Users page who signs in with single sign-on", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const problems = collectProblems(page);
    await logIn(page, srv.url, "admin", env.ADMIN_PASSWORD);
    await page.getByRole("link", { name: "Users" }).click();
    const dana = page.getByRole("row", { name: /dana@example\.com/ });
    await dana.getByRole("cell", { name: "Single sign-on" }).waitFor();
    await page
      .getByRole("row", { name: /^admin / })
      .getByRole("cell", { name: "Password" })
      .waitFor();
    await checkPage(page, "users-with-sso");
    assert.equal(problems, []);
  });
}

test.after(async () => {
  await browser?.close();
  for (const server of [srv, ssoOnly]) {
    await server.close();
    await server.db.close();
  }
  await idp.close();
});

test.run();
