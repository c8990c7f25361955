import { createSign, generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

/** A person at the test's identity provider: the claims its ID tokens carry. */
export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  groups?: string[];
}

export interface TestProvider {
  /** The issuer identifier, `http://127.0.0.1:<port>`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A second client with the same redirect URL: its codes are not Vexil's. */
  otherClientId: string;
  /** The people who can sign in, by the username typed at the provider's login page. */
  accounts: Map<string, TestAccount>;
  /**
   * Rewrites the claims of the next ID tokens before they leave, signed again with the provider's
   * own key: a provider that misbehaves (another audience, an expired token) without a forgery
   * Vexil could tell from the key. Null sends them as issued.
   */
  tamperIdToken: ((claims: Record<string, unknown>) => Record<string, unknown>) | null;
  /** Registers the clients with Vexil's redirect URLs (known once Vexil listens) and starts answering. */
  register(...redirectUris: string[]): void;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's own login page: one field, the username; every account signs in without a password. */
function loginPage(uid: string, clientId: string, problem?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1><p>Sign in to continue to ${escapeHtml(clientId)}.</p>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Username <input name="login" autocomplete="username" required></label>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/**
 * A real OpenID provider (panva's oidc-provider, OpenID-certified) on a local port, with Vexil's
 * client, a second client, and the accounts the test adds. Its login page is a minimal one the
 * tests drive (a browser, or undici); consent is granted to its first-party clients.
 */
export async function startTestProvider(options: { port?: number } = {}): Promise<TestProvider> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...(privateKey.export({ format: "jwk" }) as Record<string, string>), kid: "test-key", alg: "RS256", use: "sig" };
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const accounts = new Map<string, TestAccount>();
  function register(...redirectUris: string[]): void {
    const configuration: Configuration = {
      clients: [
        { client_id: state.clientId, client_secret: state.clientSecret, redirect_uris: redirectUris, response_types: ["code"] },
        {
          client_id: state.otherClientId,
          client_secret: "another-secret-of-some-length",
          redirect_uris: redirectUris,
          response_types: ["code"],
        },
      ],
      jwks: { keys: [jwk] } as Configuration["jwks"],
      cookies: { keys: ["test-provider-cookie-key"] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"], groups: ["groups"] },
      // The ID token carries the scopes' claims, as most providers send them: Vexil reads no userinfo.
      conformIdTokenClaims: false,
      // A test's lifetimes: short, and stated, so that the provider has nothing to warn about.
      ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => {
        const account = [...accounts.values()].find((a) => a.sub === sub);
        return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
      },
      // First-party clients: consent is granted for whatever they ask.
      loadExistingGrant: async (ctx) => {
        const accountId = ctx.oidc.session?.accountId;
        if (!accountId || !ctx.oidc.client) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
        grant.addOIDCScope(String(ctx.oidc.params?.scope ?? "openid"));
        await grant.save();
        return grant;
      },
    };
    const provider = new Provider(issuer, configuration);
    // After the token endpoint answered: the ID token's claims rewritten where a test asks, signed again with the same key.
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path !== "/token" || !state.tamperIdToken || !body?.id_token) return;
      const [header, payload] = body.id_token.split(".") as [string, string];
      const claims = state.tamperIdToken(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
      const input = `${header}.${base64url(JSON.stringify(claims))}`;
      body.id_token = `${input}.${createSign("RSA-SHA256").update(input).sign(privateKey).toString("base64url")}`;
    });
    const callback = provider.callback();

    handler = (req, res) => {
      const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? "");
      if (!match) return callback(req, res);
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        if (req.method === "GET") {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(loginPage(details.uid, String(details.params.client_id)));
          return;
        }
        const login = (await formBody(req)).get("login") ?? "";
        const account = accounts.get(login);
        if (!account) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(loginPage(details.uid, String(details.params.client_id), `There is no account "${login}".`));
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      })().catch((error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    };
  }
  const state: TestProvider = {
    issuer,
    clientId: "vexil",
    clientSecret: "vexil-test-client-secret-of-some-length",
    otherClientId: "another-app",
    accounts,
    tamperIdToken: null,
    register,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}
