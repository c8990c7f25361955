import type pg from "pg";

export const PROJECT = "bench";
const OTHER_PROJECTS = 100;
const FILLER_USERS = 50;
/** Of the caller's change requests in the bench project, this many are pending. */
export const CALLER_PENDING = 20;
const CALLER_IN_PROJECT = 120;

export const featureName = (i: number) => `feature-${String(i).padStart(6, "0")}`;

// Stored as the server stores them: normalised weights, defaults filled in, sorted by name.
export const PRODUCTION_VARIANTS = [
  {
    name: "blue",
    weight: 250,
    weightType: "variable",
    stickiness: "default",
    payload: { type: "json", value: '{"color":"blue"}' },
    overrides: [],
  },
  { name: "control", weight: 500, weightType: "fix", stickiness: "default", overrides: [] },
  {
    name: "green",
    weight: 250,
    weightType: "variable",
    stickiness: "userId",
    overrides: [{ contextName: "userId", values: ["1", "2", "3"] }],
  },
];
export const DEVELOPMENT_VARIANTS = [
  { name: "off", weight: 500, weightType: "variable", stickiness: "default", overrides: [] },
  { name: "on", weight: 500, weightType: "variable", stickiness: "default", overrides: [] },
];

/** The bench project and its neighbours, with both environments enabled and change requests on. */
export async function seedProjects(client: pg.Client): Promise<void> {
  await client.query(`
    insert into projects (id, name)
    select id, id from (select '${PROJECT}' as id union all select 'other-' || lpad(g::text, 3, '0') from generate_series(1, ${OTHER_PROJECTS}) g) p;
    insert into project_environments (project_id, environment_name)
    select p.id, e.name from projects p cross join (values ('development'), ('production')) e(name)
    on conflict do nothing;
    insert into change_request_settings (project_id, environment_name, enabled, required_approvals)
    select project_id, environment_name, true, 1 from project_environments;
    insert into users (username, root_role) select 'filler-' || g, 2 from generate_series(1, ${FILLER_USERS}) g;
  `);
}

/**
 * `inProject` change requests in the bench project (the caller's: 20 pending and 100 applied; the
 * rest by other users) and `elsewhere` in the other projects, half of them the caller's; each with
 * two changes, and an approval on the scheduled and applied ones. Set-based, so 100,000 load in seconds.
 */
export async function seedChangeRequests(client: pg.Client, callerId: number, inProject: number, elsewhere: number): Promise<void> {
  const firstFiller = (await client.query<{ id: number }>("select min(id) as id from users where username like 'filler-%'")).rows[0]?.id;
  await client.query(
    `
    insert into change_requests (project_id, environment_name, title, state, created_by_user_id, min_approvals, scheduled_at, schedule_status)
    select project, env, 'Bench change ' || g, state, author, 1,
           case when state = 'Scheduled' then timestamptz '2100-01-01' end,
           case when state = 'Scheduled' then 'pending' end
    from (
      select g, '${PROJECT}' as project,
             case when g % 2 = 0 then 'production' else 'development' end as env,
             case when g = 1 then 'Draft' when g = 2 then 'In review' when g <= ${CALLER_PENDING} then 'Scheduled'
                  when g <= ${CALLER_IN_PROJECT} then 'Applied'
                  else (array['Applied', 'Cancelled', 'Rejected', 'Scheduled'])[g % 4 + 1] end as state,
             case when g <= ${CALLER_IN_PROJECT} then $1::int else $2::int + g % ${FILLER_USERS} end as author
      from generate_series(1, $3::int) g
      union all
      select g, 'other-' || lpad((g % ${OTHER_PROJECTS} + 1)::text, 3, '0'),
             case when g % 2 = 0 then 'production' else 'development' end,
             (array['Applied', 'Cancelled', 'Rejected', 'Scheduled'])[g % 4 + 1],
             case when g % 2 = 0 then $1::int else $2::int + g % ${FILLER_USERS} end
      from generate_series(1, $4::int) g
    ) s
    order by project = '${PROJECT}' desc, g`,
    [callerId, firstFiller, inProject, elsewhere],
  );
  await client.query(
    `insert into change_request_changes (change_request_id, feature_name, action, payload, created_by_user_id)
     select cr.id, 'feature-' || lpad((cr.id % 100 + k)::text, 6, '0'),
            case k when 1 then 'updateEnabled' else 'patchVariant' end,
            case k when 1 then '{"enabled": true}'::jsonb else jsonb_build_object('variants', $1::jsonb) end,
            cr.created_by_user_id
     from change_requests cr cross join generate_series(1, 2) k`,
    [JSON.stringify(DEVELOPMENT_VARIANTS)],
  );
  await client.query(
    `insert into change_request_reviews (change_request_id, kind, user_id)
     select cr.id, 'approval', $1::int from change_requests cr where cr.state in ('Scheduled', 'Applied')`,
    [firstFiller],
  );
  await client.query("analyze");
}

/** Adds features `from`..`to` to the bench project, each with variants in both environments. */
export async function addFeatures(client: pg.Client, from: number, to: number): Promise<void> {
  if (to < from) return;
  await client.query(
    `insert into features (name, project_id) select 'feature-' || lpad(g::text, 6, '0'), '${PROJECT}' from generate_series($1::int, $2::int) g`,
    [from, to],
  );
  await client.query(
    `insert into feature_environments (feature_name, environment_name, enabled, variants)
     select 'feature-' || lpad(g::text, 6, '0'), e.name, true, case e.name when 'production' then $3::jsonb else $4::jsonb end
     from generate_series($1::int, $2::int) g cross join (values ('development'), ('production')) e(name)`,
    [from, to, JSON.stringify(PRODUCTION_VARIANTS), JSON.stringify(DEVELOPMENT_VARIANTS)],
  );
  await client.query("analyze");
}
