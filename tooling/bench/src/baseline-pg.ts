// Baseline (b): a bare node:http + pg handler doing, for each request, the queries the server does
// (token or session look-up on every request, then the same SQL), with no framework around it:
// the ceiling of this design. Started by bench.ts; it serves only the benchmarked routes.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { unsealData } from "iron-session";
import pg from "pg";

pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const SECRET = process.env.SESSION_SECRET as string;
const TTL_S = 48 * 3600;
const IDLE_S = 24 * 3600;

interface Principal {
  userId: number | null;
  admin: boolean;
  name: string;
}

async function principalOf(req: IncomingMessage): Promise<Principal | null> {
  const authorization = req.headers.authorization?.trim();
  if (authorization) {
    const hash = createHash("sha256")
      .update(authorization.replace(/^Bearer\s+/i, ""))
      .digest("hex");
    const { rows } = await pool.query(
      `select t.id, t.type, t.token_name, u.id as user_id, u.username, u.email, u.root_role
         from api_tokens t left join users u on u.id = t.user_id
        where t.secret_hash = $1 and (t.expires_at is null or t.expires_at > now())`,
      [hash],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.type === "admin") return { userId: null, admin: true, name: row.token_name };
    if (row.type === "personal") return { userId: row.user_id, admin: row.root_role === 1, name: row.username ?? row.email };
    return null;
  }
  const cookie = /(?:^|;\s*)vexil-session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
  if (!cookie) return null;
  const data = await unsealData<{ sid?: string }>(cookie, { password: SECRET, ttl: TTL_S }).catch(() => ({}) as { sid?: string });
  if (!data.sid) return null;
  const { rows } = await pool.query(
    `select s.id, u.id as user_id, u.username, u.email, u.root_role,
            s.last_seen_at < now() - make_interval(secs => 60) as stale
       from sessions s join users u on u.id = s.user_id
      where s.id = $1 and s.expires_at > now() and s.last_seen_at > now() - make_interval(secs => $2)`,
    [data.sid, IDLE_S],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.stale) await pool.query("update sessions set last_seen_at = now() where id = $1", [data.sid]);
  return { userId: row.user_id, admin: row.root_role === 1, name: row.username ?? row.email };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

async function variants(res: ServerResponse, project: string, feature: string, environment: string): Promise<void> {
  const { rows } = await pool.query(
    `select exists (select id from projects where id = $1) as "projectExists",
            (select project_id from features where name = $2) as "featureProject",
            exists (select name from environments where name = $3) as "environmentExists",
            exists (select environment_name from project_environments where project_id = $1 and environment_name = $3) as "environmentEnabled",
            (select variants from feature_environments where feature_name = $2 and environment_name = $3) as variants`,
    [project, feature, environment],
  );
  const found = rows[0];
  if (!found.projectExists || found.featureProject !== project || !found.environmentExists || !found.environmentEnabled) {
    return send(res, 404, { name: "NotFoundError" });
  }
  send(res, 200, { version: 1, variants: found.variants ?? [] });
}

async function createBanner(req: IncomingMessage, res: ServerResponse, by: Principal): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  if (typeof input.message !== "string" || !input.message) return send(res, 400, { name: "ValidationError" });
  const client = await pool.connect();
  try {
    await client.query("begin");
    await client.query("select pg_advisory_xact_lock(7401340)");
    const { rows } = await client.query(
      `insert into banners (message, enabled, variant, sticky, icon, link, link_text, dialog_title, dialog, created_at)
       values ($1, true, $2, false, null, null, null, null, null,
               greatest(date_trunc('milliseconds', clock_timestamp()), (select max(created_at) + interval '1 millisecond' from banners)))
       returning *`,
      [input.message, input.variant ?? "info"],
    );
    const r = rows[0];
    const banner = {
      id: r.id,
      message: r.message,
      enabled: r.enabled,
      variant: r.variant,
      sticky: r.sticky,
      icon: r.icon,
      link: r.link,
      linkText: r.link_text,
      dialogTitle: r.dialog_title,
      dialog: r.dialog,
      createdAt: r.created_at.toISOString(),
    };
    await client.query("insert into events (type, created_by, created_by_user_id, data) values ('banner-created', $1, $2, $3)", [
      by.name,
      by.userId,
      JSON.stringify(banner),
    ]);
    await client.query("commit");
    send(res, 201, banner, { location: `/api/admin/banners/${banner.id}` });
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    client.release();
  }
}

async function pending(res: ServerResponse, project: string, by: Principal): Promise<void> {
  const exists = await pool.query("select id from projects where id = $1", [project]);
  if (!exists.rowCount) return send(res, 404, { name: "NotFoundError" });
  if (by.userId === null) return send(res, 200, []);
  const ids = (
    await pool.query(
      `select cr.id from change_requests cr
         join change_request_settings s on s.project_id = cr.project_id and s.environment_name = cr.environment_name
        where cr.project_id = $1 and cr.created_by_user_id = $2 and cr.state in ('Draft', 'In review', 'Approved', 'Scheduled') and s.enabled = true
        order by cr.id`,
      [project, by.userId],
    )
  ).rows.map((r) => r.id as number);
  if (ids.length === 0) return send(res, 200, []);
  const [requests, changes, reviews] = await Promise.all([
    pool.query("select * from change_requests where id = any($1) order by id", [ids]),
    pool.query("select * from change_request_changes where change_request_id = any($1) order by id", [ids]),
    pool.query("select * from change_request_reviews where change_request_id = any($1) order by id", [ids]),
  ]);
  const userIds = [
    ...new Set([
      ...requests.rows.map((r) => r.created_by_user_id),
      ...changes.rows.map((c) => c.created_by_user_id),
      ...reviews.rows.map((r) => r.user_id),
    ]),
  ];
  const users = new Map(
    (await pool.query("select * from users where id = any($1)", [userIds])).rows.map((u) => [
      u.id,
      { id: u.id, username: u.username ?? u.email, imageUrl: "" },
    ]),
  );
  const actor = (id: number) => users.get(id) ?? { id, username: null, imageUrl: "" };
  const body = requests.rows.map((r) => {
    const features = new Map<string, { name: string; changes: unknown[] }>();
    for (const c of changes.rows) {
      if (c.change_request_id !== r.id) continue;
      let feature = features.get(c.feature_name);
      if (!feature) features.set(c.feature_name, (feature = { name: c.feature_name, changes: [] }));
      feature.changes.push({
        id: c.id,
        action: c.action,
        payload: c.payload,
        createdAt: c.created_at.toISOString(),
        createdBy: actor(c.created_by_user_id),
      });
    }
    const mine = reviews.rows.filter((v) => v.change_request_id === r.id);
    return {
      id: r.id,
      ...(r.title ? { title: r.title } : {}),
      environment: r.environment_name,
      minApprovals: r.min_approvals,
      project: r.project_id,
      features: [...features.values()],
      segments: [],
      approvals: mine
        .filter((v) => v.kind === "approval")
        .map((v) => ({ createdBy: actor(v.user_id), createdAt: v.created_at.toISOString() })),
      rejections: [],
      comments: [],
      createdBy: actor(r.created_by_user_id),
      createdAt: r.created_at.toISOString(),
      state: r.state,
      ...(r.state === "Scheduled"
        ? { schedule: { scheduledAt: r.scheduled_at.toISOString(), status: r.schedule_status ?? "pending" } }
        : {}),
    };
  });
  send(res, 200, body);
}

const VARIANTS = /^\/api\/admin\/projects\/([^/]+)\/features\/([^/]+)\/environments\/([^/]+)\/variants$/;
const PENDING = /^\/api\/admin\/projects\/([^/]+)\/change-requests\/pending$/;

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?", 1)[0] as string;
  if (path === "/health") return send(res, 200, { status: "ok" });
  const by = await principalOf(req);
  if (!by) return send(res, 401, { name: "AuthenticationRequired" });
  const v = req.method === "GET" ? VARIANTS.exec(path) : null;
  if (v) return variants(res, decodeURIComponent(v[1] as string), decodeURIComponent(v[2] as string), decodeURIComponent(v[3] as string));
  const p = req.method === "GET" ? PENDING.exec(path) : null;
  if (p) return pending(res, decodeURIComponent(p[1] as string), by);
  if (req.method === "POST" && path === "/api/admin/banners") {
    if (!by.admin) return send(res, 403, { name: "NoAccessError" });
    return createBanner(req, res, by);
  }
  send(res, 404, { name: "NotFoundError" });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    if (!res.headersSent) send(res, 500, { name: "InternalError" });
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.once("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
