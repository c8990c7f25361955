import type pg from "pg";

/** The frontend scenario's project: its own flags, so the admin scenarios' project stays as it was. */
export const FRONTEND_PROJECT = "bench-frontend";
/** The context every frontend request sends but its userId, which changes from request to request. */
export const FRONTEND_QUERY = "appName=bench-web&properties%5Bplan%5D=pro";

/** Each flag's variants in development, as stored. */
export const FRONTEND_VARIANTS = [
  { name: "control", weight: 500, weightType: "variable", stickiness: "default", overrides: [] },
  {
    name: "treatment",
    weight: 500,
    weightType: "variable",
    stickiness: "default",
    payload: { type: "json", value: '{"color":"blue"}' },
    overrides: [],
  },
];
/** The constraint of every other flag's rollout (the even-numbered ones). */
export const FRONTEND_CONSTRAINTS = [
  { contextName: "plan", operator: "IN", values: ["pro", "team"], inverted: false, caseInsensitive: false },
];
/** The name of the frontend set's flag `i`. */
export const frontendFlagName = (i: number) => `web-${String(i).padStart(6, "0")}`;

/**
 * `count` flags for browsers, on in development, each with a gradual rollout by userId (half of
 * them also constrained to plans "pro" and "team") and two variants: the work an SDK does per flag.
 */
export async function seedFrontendFlags(client: pg.Client, count: number): Promise<void> {
  await client.query(`
    insert into projects (id, name) values ('${FRONTEND_PROJECT}', '${FRONTEND_PROJECT}');
    insert into project_environments (project_id, environment_name) values ('${FRONTEND_PROJECT}', 'development');
  `);
  await client.query(
    `insert into features (name, project_id) select 'web-' || lpad(g::text, 6, '0'), '${FRONTEND_PROJECT}' from generate_series(1, $1::int) g`,
    [count],
  );
  await client.query(
    `insert into feature_environments (feature_name, environment_name, enabled, variants)
     select 'web-' || lpad(g::text, 6, '0'), 'development', true, $2::jsonb from generate_series(1, $1::int) g`,
    [count, JSON.stringify(FRONTEND_VARIANTS)],
  );
  await client.query(
    `insert into feature_strategies (id, feature_name, environment_name, name, parameters, constraints)
     select 'bench-web-' || g, 'web-' || lpad(g::text, 6, '0'), 'development', 'flexibleRollout',
            jsonb_build_object('rollout', '50', 'stickiness', 'userId', 'groupId', 'web-' || lpad(g::text, 6, '0')),
            case when g % 2 = 0 then $2::jsonb else '[]'::jsonb end
     from generate_series(1, $1::int) g`,
    [count, JSON.stringify(FRONTEND_CONSTRAINTS)],
  );
  await client.query("analyze");
}
