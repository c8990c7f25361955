import { type Command, oneOf, parseFlags, required, UsageError } from "./command.ts";

const TYPES = ["admin", "client", "frontend", "scim"] as const;

/** A token as `vexil token create` was asked for it, its flags checked. */
export interface TokenRequest {
  tokenName: string;
  type: (typeof TYPES)[number];
  projects: string[] | undefined;
  environment: string | undefined;
  expiresAt: Date | null;
}
const MAX_NAME = 100;

export const tokenCreate: Command = {
  words: ["token", "create"],
  summary: "create an API token and print its secret (shown only this once)",
  help: `Usage: vexil token create --name <name> --type <admin|client|frontend|scim>
                          [--project <id>]... [--environment <name>] [--expires-at <ISO date-time>]

Creates an API token and prints the whole token on stdout, alone on its line, so that
  TOKEN=$(vexil token create --name ci --type admin)
captures it. It is stored hashed and cannot be shown again.

  admin     calls the admin API with every permission: "*:*.<secret>"
  client    for server-side SDKs (the client API, /api/client/...), limited to projects and one
            environment: "<project>:<environment>.<secret>"; give an Unleash SDK the URL <server>/api/
  frontend  for browser SDKs (the frontend API), the same shape as client; give
            unleash-proxy-client the URL <server>/api/frontend, and list the page's origin in CORS_ORIGINS
  scim      for an identity provider's SCIM provisioning (Okta, Microsoft Entra), good for
            <server>/scim/v2 and nothing else: "scim:<secret>", sent as a bearer token

--project (repeatable) and --environment apply to client and frontend tokens: without them the
token covers every project ("*") and the "development" environment.

With the embedded database, stop the server first (one process at a time).`,

  async run(args, terminal) {
    const flags = parseFlags(args, {
      name: { type: "string" },
      type: { type: "string" },
      project: { type: "string", multiple: true },
      environment: { type: "string" },
      "expires-at": { type: "string" },
    });
    const tokenName = required(flags.name, "name");
    if (tokenName.length > MAX_NAME) throw new UsageError(`--name must be at most ${MAX_NAME} characters`);
    const type = oneOf(required(flags.type, "type"), TYPES, "type");
    if (type === "admin" && (flags.project || flags.environment)) {
      throw new UsageError("--project and --environment apply to client and frontend tokens; an admin token covers everything");
    }
    if (type === "scim" && (flags.project || flags.environment)) {
      throw new UsageError(
        "--project and --environment apply to client and frontend tokens; a SCIM token provisions users and groups only",
      );
    }
    // The API's limits (its zod schema); the service checks that the environment exists.
    const names = [...(flags.project ?? []), ...(flags.environment === undefined ? [] : [flags.environment])];
    if (names.some((n) => n.length < 1 || n.length > MAX_NAME))
      throw new UsageError(`project and environment names have 1 to ${MAX_NAME} characters`);
    let expiresAt: Date | null = null;
    if (flags["expires-at"] !== undefined) {
      expiresAt = new Date(flags["expires-at"]);
      if (!/^\d{4}-\d{2}-\d{2}/.test(flags["expires-at"]) || Number.isNaN(expiresAt.getTime())) {
        throw new UsageError(`--expires-at must be an ISO date-time such as 2030-01-31T12:00:00Z (got "${flags["expires-at"]}")`);
      }
      if (expiresAt.getTime() <= Date.now()) throw new UsageError("--expires-at must be in the future");
    }
    const { runTokenCreate } = await import("./run-token-create.ts");
    await runTokenCreate({ tokenName, type, projects: flags.project, environment: flags.environment, expiresAt }, terminal);
  },
};
