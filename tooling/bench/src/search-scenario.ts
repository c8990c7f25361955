// The search scenario: GET /api/admin/search/features at many flags, and the client API
// with many archived flags in the database beside the live ones it serves.
import type pg from "pg";
import type { LoadSpec } from "./load.ts";

export const SEARCH_PROJECT = "bench-search";
const SEARCH_TAGS = 100;
const searchName = (i: number) => `search-flag-${String(i).padStart(6, "0")}`;

/**
 * `count` flags in a project of their own, spread as a real instance's: five types, a third with
 * a description, a twentieth stale and as many potentially stale, created over five years, half
 * seen by SDKs, a fifth tagged (one of 100 tags), on in production for a third. Set-based SQL.
 */
export async function seedSearchFlags(client: pg.Client, count: number): Promise<void> {
  await client.query("insert into projects (id, name) values ($1, $1)", [SEARCH_PROJECT]);
  await client.query("insert into project_environments (project_id, environment_name) values ($1, 'development'), ($1, 'production')", [
    SEARCH_PROJECT,
  ]);
  await client.query(
    `insert into features (name, project_id, description, type, created_at, stale, potentially_stale, last_seen_at)
     select 'search-flag-' || lpad(g::text, 6, '0'), $1,
            case when g % 3 = 0 then 'Rolls out change ' || g end,
            (array['release', 'experiment', 'operational', 'kill-switch', 'permission'])[g % 5 + 1],
            timestamptz '2021-01-01' + g * (interval '5 years' / $2::int),
            g % 20 = 1, g % 20 = 2,
            case when g % 2 = 0 then now() - g * interval '1 minute' end
     from generate_series(1, $2::int) g`,
    [SEARCH_PROJECT, count],
  );
  await client.query(
    `insert into tag_types (name) values ('simple') on conflict do nothing;
     insert into tags (type, value) select 'simple', 'search-tag-' || g from generate_series(1, ${SEARCH_TAGS}) g on conflict do nothing`,
  );
  await client.query(
    `insert into feature_tags (feature_name, tag_type, tag_value)
     select 'search-flag-' || lpad(g::text, 6, '0'), 'simple', 'search-tag-' || (g / 5 % ${SEARCH_TAGS} + 1) from generate_series(1, $1::int, 5) g`,
    [count],
  );
  await client.query(
    `insert into feature_environments (feature_name, environment_name, enabled)
     select 'search-flag-' || lpad(g::text, 6, '0'), 'production', g % 3 = 0 from generate_series(1, $1::int) g`,
    [count],
  );
  // As autovacuum leaves tables after a bulk insert.
  await client.query("vacuum analyze features, feature_tags, feature_environments");
}

/** Searches a person makes in the console: a substring of the name, and a project's filters. */
export function searchSpecs(count: number, headers: Record<string, string>, connections: number): { query: LoadSpec; filter: LoadSpec } {
  // A name's first digits: about a hundred flags match each term, a page of 50 and their total.
  const prefix = () => searchName(1 + Math.floor(Math.random() * count)).slice(0, -2);
  const tag = () => 1 + Math.floor(Math.random() * SEARCH_TAGS);
  return {
    query: {
      method: "GET",
      path: () => `/api/admin/search/features?query=${prefix()}`,
      headers,
      connections,
    },
    filter: {
      method: "GET",
      path: () =>
        `/api/admin/search/features?project=IS:${SEARCH_PROJECT}&state=IS:active&tag=INCLUDE_ANY_OF:simple:search-tag-${tag()},simple:search-tag-${tag()}&sortBy=name`,
      headers,
      connections,
    },
  };
}

/**
 * `count` archived flags in the project the client API serves, each on in both environments (so a
 * read model that served them would be seen at once), named apart from the live ones.
 */
export async function seedArchivedFlags(client: pg.Client, project: string, count: number): Promise<void> {
  await client.query(
    `insert into features (name, project_id, archived_at, stale)
     select 'archived-' || lpad(g::text, 6, '0'), $1, now() - g * interval '1 minute', g % 2 = 0 from generate_series(1, $2::int) g`,
    [project, count],
  );
  await client.query(
    `insert into feature_environments (feature_name, environment_name, enabled)
     select 'archived-' || lpad(g::text, 6, '0'), e.name, true from generate_series(1, $1::int) g cross join (values ('development'), ('production')) e(name)`,
    [count],
  );
  await client.query("vacuum analyze features, feature_environments");
}

/** Removes them again, so that the scenarios after run on the data they always had. */
export async function removeArchivedFlags(client: pg.Client): Promise<void> {
  await client.query("delete from features where name like 'archived-%' and archived_at is not null");
  await client.query("vacuum analyze features, feature_environments");
}

export const ARCHIVE_PROJECT = "bench-archive";

/** `count` live flags, each on in development, in a project of their own: what one archive call takes. */
export async function seedArchiveFlags(client: pg.Client, count: number): Promise<string[]> {
  await client.query("insert into projects (id, name) values ($1, $1)", [ARCHIVE_PROJECT]);
  await client.query("insert into project_environments (project_id, environment_name) values ($1, 'development'), ($1, 'production')", [
    ARCHIVE_PROJECT,
  ]);
  const { rows } = await client.query<{ name: string }>(
    `insert into features (name, project_id) select 'to-archive-' || lpad(g::text, 6, '0'), $1 from generate_series(1, $2::int) g returning name`,
    [ARCHIVE_PROJECT, count],
  );
  await client.query(
    `insert into feature_environments (feature_name, environment_name, enabled)
     select f.name, e.name, e.name = 'development' from features f cross join (values ('development'), ('production')) e(name) where f.project_id = $1`,
    [ARCHIVE_PROJECT],
  );
  await client.query("vacuum analyze features, feature_environments");
  return rows.map((r) => r.name);
}
