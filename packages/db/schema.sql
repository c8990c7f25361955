--
-- PostgreSQL database dump
--

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';

--
-- Name: vexil_notify_addon_delivery(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_notify_addon_delivery() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      perform pg_notify('vexil_addon_deliveries', '');
      return null;
    end $$;

--
-- Name: vexil_notify_auth_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_notify_auth_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      perform pg_notify('vexil_auth_changes', tg_argv[0] || ':' || (to_jsonb(old) ->> tg_argv[1]));
      return null;
    end
    $$;

--
-- Name: vexil_notify_console_events(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_notify_console_events() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    declare
      payload text;
    begin
      -- A statement-level trigger fires for an insert of no rows too (an empty INSERT ... SELECT): nothing changed.
      if not exists (select from appended) then
        return null;
      end if;
      select json_build_object('changes', json_agg(distinct jsonb_build_object(
               'type', type,
               'project', project,
               'environment', environment,
               'feature', feature_name,
               'changeRequestId', case when type like 'change-request-%'
                                       then coalesce(data ->> 'changeRequestId', data ->> 'id') end)))::text
        into payload
        from appended;
      if octet_length(payload) > 4000 then
        payload := '{"everything":true}';
      end if;
      perform pg_notify('vexil_console_events', payload);
      return null;
    end $$;

--
-- Name: vexil_notify_flag_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_notify_flag_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      perform pg_notify('vexil_flag_changes', tg_table_name);
      return null;
    end
    $$;

--
-- Name: vexil_notify_project_role_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_notify_project_role_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    declare
      changed record;
    begin
      if tg_op = 'DELETE' then changed := old; else changed := new; end if;
      if tg_table_name = 'group_role' then
        perform pg_notify('vexil_auth_changes', 'user:' || gu.user_id) from group_users gu where gu.group_id = changed.group_id;
      else
        perform pg_notify('vexil_auth_changes', 'user:' || changed.user_id);
      end if;
      return null;
    end
    $$;

--
-- Name: vexil_tag_keys_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_tag_keys_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      begin
        perform 1 from features where name in (select feature_name from changed) order by name for no key update;
        update features f set tag_keys = k.keys
        from (select n.name, coalesce((select array_agg(t.tag_type || ':' || t.tag_value order by t.tag_type, t.tag_value)
             from feature_tags t where t.feature_name = n.name), '{}') as keys from (select feature_name from changed) n(name)) k
        where f.name = k.name and f.tag_keys is distinct from k.keys;
        return null;
      end
      $$;

--
-- Name: vexil_tag_keys_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_tag_keys_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      begin
        perform 1 from features where name in (select feature_name from changed) order by name for no key update;
        update features f set tag_keys = k.keys
        from (select n.name, coalesce((select array_agg(t.tag_type || ':' || t.tag_value order by t.tag_type, t.tag_value)
             from feature_tags t where t.feature_name = n.name), '{}') as keys from (select feature_name from changed) n(name)) k
        where f.name = k.name and f.tag_keys is distinct from k.keys;
        return null;
      end
      $$;

--
-- Name: vexil_tag_keys_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.vexil_tag_keys_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      begin
        perform 1 from features where name in (select feature_name from changed union select feature_name from changed_before) order by name for no key update;
        update features f set tag_keys = k.keys
        from (select n.name, coalesce((select array_agg(t.tag_type || ':' || t.tag_value order by t.tag_type, t.tag_value)
             from feature_tags t where t.feature_name = n.name), '{}') as keys from (select feature_name from changed union select feature_name from changed_before) n(name)) k
        where f.name = k.name and f.tag_keys is distinct from k.keys;
        return null;
      end
      $$;

--
-- Name: addon_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.addon_deliveries (
    id bigint NOT NULL,
    addon_id integer NOT NULL,
    event_id bigint NOT NULL,
    state text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    last_status integer,
    last_error text,
    CONSTRAINT addon_deliveries_state_known CHECK ((state = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text])))
);

--
-- Name: addon_deliveries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.addon_deliveries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.addon_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: addons; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.addons (
    id integer NOT NULL,
    provider text NOT NULL,
    description text,
    enabled boolean DEFAULT true NOT NULL,
    parameters jsonb DEFAULT '{}'::jsonb NOT NULL,
    events jsonb DEFAULT '[]'::jsonb NOT NULL,
    projects jsonb DEFAULT '[]'::jsonb NOT NULL,
    environments jsonb DEFAULT '[]'::jsonb NOT NULL,
    signing_secret text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT addons_environments_array CHECK ((jsonb_typeof(environments) = 'array'::text)),
    CONSTRAINT addons_events_array CHECK ((jsonb_typeof(events) = 'array'::text)),
    CONSTRAINT addons_projects_array CHECK ((jsonb_typeof(projects) = 'array'::text)),
    CONSTRAINT addons_provider_known CHECK ((provider = ANY (ARRAY['webhook'::text, 'slack'::text])))
);

--
-- Name: addons_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.addons ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.addons_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: api_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_tokens (
    id integer NOT NULL,
    type text NOT NULL,
    token_name text NOT NULL,
    secret_hash text NOT NULL,
    projects jsonb NOT NULL,
    environment text NOT NULL,
    user_id integer,
    expires_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT api_tokens_type_check CHECK ((type = ANY (ARRAY['admin'::text, 'client'::text, 'frontend'::text, 'personal'::text, 'scim'::text])))
);

--
-- Name: api_tokens_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.api_tokens ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.api_tokens_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: banners; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.banners (
    id bigint NOT NULL,
    message text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    variant text DEFAULT 'info'::text NOT NULL,
    sticky boolean DEFAULT false NOT NULL,
    icon text,
    link text,
    link_text text,
    dialog_title text,
    dialog text,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT banners_message_not_empty CHECK ((message <> ''::text)),
    CONSTRAINT banners_variant_known CHECK ((variant = ANY (ARRAY['info'::text, 'warning'::text, 'error'::text, 'success'::text])))
);

--
-- Name: banners_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.banners ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.banners_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: change_request_changes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_request_changes (
    id integer NOT NULL,
    change_request_id integer NOT NULL,
    feature_name text NOT NULL,
    action text NOT NULL,
    payload jsonb NOT NULL,
    created_by_user_id integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE ONLY public.change_request_changes ALTER COLUMN feature_name SET STATISTICS 1000;

--
-- Name: change_request_changes_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.change_request_changes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.change_request_changes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: change_request_reviews; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_request_reviews (
    id integer NOT NULL,
    change_request_id integer NOT NULL,
    kind text NOT NULL,
    user_id integer NOT NULL,
    text text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT change_request_reviews_kind_check CHECK ((kind = ANY (ARRAY['approval'::text, 'rejection'::text, 'comment'::text])))
);

--
-- Name: change_request_reviews_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.change_request_reviews ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.change_request_reviews_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: change_request_settings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_request_settings (
    project_id text NOT NULL,
    environment_name text NOT NULL,
    enabled boolean NOT NULL,
    required_approvals integer NOT NULL,
    CONSTRAINT change_request_settings_required_approvals_check CHECK (((required_approvals >= 1) AND (required_approvals <= 10)))
);

--
-- Name: change_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_requests (
    id integer NOT NULL,
    project_id text NOT NULL,
    environment_name text NOT NULL,
    title text,
    state text NOT NULL,
    created_by_user_id integer NOT NULL,
    min_approvals integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    scheduled_at timestamp with time zone,
    schedule_status text,
    schedule_reason text,
    schedule_attempts integer DEFAULT 0 NOT NULL,
    schedule_retry_at timestamp with time zone,
    CONSTRAINT change_requests_schedule_status_check CHECK ((schedule_status = ANY (ARRAY['pending'::text, 'failed'::text, 'suspended'::text]))),
    CONSTRAINT change_requests_state_check CHECK ((state = ANY (ARRAY['Draft'::text, 'In review'::text, 'Approved'::text, 'Applied'::text, 'Cancelled'::text, 'Rejected'::text, 'Scheduled'::text])))
);

--
-- Name: change_requests_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.change_requests ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.change_requests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: client_instances; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.client_instances (
    app_name text NOT NULL,
    instance_id text NOT NULL,
    sdk_version text,
    environment text NOT NULL,
    strategies jsonb DEFAULT '[]'::jsonb NOT NULL,
    started timestamp with time zone NOT NULL,
    "interval" integer NOT NULL,
    last_seen timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: client_metric_variants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.client_metric_variants (
    feature_name text NOT NULL,
    environment text NOT NULL,
    app_name text NOT NULL,
    hour timestamp with time zone NOT NULL,
    variant text NOT NULL,
    count bigint DEFAULT 0 NOT NULL
);

--
-- Name: client_metric_variants_daily; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.client_metric_variants_daily (
    feature_name text NOT NULL,
    environment text NOT NULL,
    app_name text NOT NULL,
    day timestamp with time zone NOT NULL,
    variant text NOT NULL,
    count bigint DEFAULT 0 NOT NULL
);

--
-- Name: client_metrics; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.client_metrics (
    feature_name text NOT NULL,
    environment text NOT NULL,
    app_name text NOT NULL,
    hour timestamp with time zone NOT NULL,
    yes bigint DEFAULT 0 NOT NULL,
    no bigint DEFAULT 0 NOT NULL
);

--
-- Name: client_metrics_daily; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.client_metrics_daily (
    feature_name text NOT NULL,
    environment text NOT NULL,
    app_name text NOT NULL,
    day timestamp with time zone NOT NULL,
    yes bigint DEFAULT 0 NOT NULL,
    no bigint DEFAULT 0 NOT NULL
);

--
-- Name: context_fields; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.context_fields (
    name text NOT NULL,
    description text,
    stickiness boolean DEFAULT false NOT NULL,
    sort_order integer DEFAULT 0 NOT NULL,
    legal_values jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: environments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.environments (
    name text NOT NULL,
    type text NOT NULL,
    sort_order integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    id bigint NOT NULL,
    type text NOT NULL,
    created_by text NOT NULL,
    created_by_user_id integer,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    project text,
    environment text,
    feature_name text,
    data jsonb NOT NULL,
    pre_data jsonb
);

--
-- Name: events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: feature_dependencies; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feature_dependencies (
    child text NOT NULL,
    parent text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    variants jsonb DEFAULT '[]'::jsonb NOT NULL
);

--
-- Name: feature_environments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feature_environments (
    feature_name text NOT NULL,
    environment_name text NOT NULL,
    enabled boolean DEFAULT false NOT NULL,
    variants jsonb DEFAULT '[]'::jsonb NOT NULL,
    last_seen_at timestamp with time zone,
    CONSTRAINT feature_environments_variants_array CHECK ((jsonb_typeof(variants) = 'array'::text))
);

--
-- Name: feature_lifecycles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feature_lifecycles (
    feature_name text NOT NULL,
    stage text NOT NULL,
    status text,
    status_value text,
    entered_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT feature_lifecycles_stage CHECK ((stage = ANY (ARRAY['initial'::text, 'pre-live'::text, 'live'::text, 'completed'::text, 'archived'::text])))
);

--
-- Name: feature_strategies; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feature_strategies (
    id text NOT NULL,
    feature_name text NOT NULL,
    environment_name text NOT NULL,
    name text NOT NULL,
    title text,
    disabled boolean DEFAULT false NOT NULL,
    sort_order integer DEFAULT 0 NOT NULL,
    constraints jsonb DEFAULT '[]'::jsonb NOT NULL,
    parameters jsonb DEFAULT '{}'::jsonb NOT NULL,
    variants jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: feature_strategy_segments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feature_strategy_segments (
    strategy_id text NOT NULL,
    segment_id integer NOT NULL
);

--
-- Name: feature_tags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feature_tags (
    feature_name text NOT NULL,
    tag_type text NOT NULL,
    tag_value text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: feature_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feature_types (
    id text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    lifetime_days integer,
    sort_order integer DEFAULT 0 NOT NULL,
    CONSTRAINT feature_types_lifetime_days_check CHECK (((lifetime_days IS NULL) OR (lifetime_days >= 0)))
);

--
-- Name: features; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.features (
    name text NOT NULL,
    project_id text NOT NULL,
    description text,
    type text DEFAULT 'release'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    impression_data boolean DEFAULT false NOT NULL,
    archived_at timestamp with time zone,
    stale boolean DEFAULT false NOT NULL,
    potentially_stale boolean DEFAULT false NOT NULL,
    last_seen_at timestamp with time zone,
    tag_keys text[] DEFAULT '{}'::text[] NOT NULL
);

--
-- Name: group_role; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.group_role (
    project text NOT NULL,
    group_id integer NOT NULL,
    role_id integer NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT group_role_role_id_check CHECK ((role_id = ANY (ARRAY[4, 5, 6])))
);

--
-- Name: group_users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.group_users (
    group_id integer NOT NULL,
    user_id integer NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: groups; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.groups (
    id integer NOT NULL,
    name text NOT NULL,
    description text,
    scim_id text,
    scim_external_id text,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: groups_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.groups ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.groups_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: kysely_migration; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.kysely_migration (
    name character varying(255) NOT NULL,
    "timestamp" character varying(255) NOT NULL
);

--
-- Name: kysely_migration_lock; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.kysely_migration_lock (
    id character varying(255) NOT NULL,
    is_locked integer DEFAULT 0 NOT NULL
);

--
-- Name: login_failures; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.login_failures (
    id bigint NOT NULL,
    account text NOT NULL,
    ip text NOT NULL,
    failed_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: login_failures_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.login_failures ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.login_failures_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: login_streaks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.login_streaks (
    account text NOT NULL,
    ip text NOT NULL,
    failures integer NOT NULL,
    last_failed_at timestamp with time zone NOT NULL
);

--
-- Name: oidc_logins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oidc_logins (
    state_hash text NOT NULL,
    nonce text NOT NULL,
    code_verifier text NOT NULL,
    return_to text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: project_environments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.project_environments (
    project_id text NOT NULL,
    environment_name text NOT NULL
);

--
-- Name: projects; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.projects (
    id text NOT NULL,
    name text NOT NULL,
    description text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: role_user; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.role_user (
    project text NOT NULL,
    user_id integer NOT NULL,
    role_id integer NOT NULL,
    created_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT role_user_role_id_check CHECK ((role_id = ANY (ARRAY[4, 5, 6])))
);

--
-- Name: segments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.segments (
    id integer NOT NULL,
    name text NOT NULL,
    description text,
    project_id text,
    constraints jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: segments_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.segments ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.segments_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    id text NOT NULL,
    seq bigint NOT NULL,
    user_id integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    user_agent text,
    ip text,
    password_change_required boolean DEFAULT false NOT NULL
);

--
-- Name: sessions_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.sessions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.sessions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: strategy_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.strategy_types (
    name text NOT NULL,
    description text,
    parameters jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: tag_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tag_types (
    name text NOT NULL,
    description text,
    icon text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    color text
);

--
-- Name: tags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tags (
    type text NOT NULL,
    value text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: unknown_flags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.unknown_flags (
    name text NOT NULL,
    app_name text NOT NULL,
    environment text NOT NULL,
    seen_at timestamp with time zone NOT NULL
);

--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id integer NOT NULL,
    username text,
    email text,
    name text,
    password_hash text,
    root_role integer NOT NULL,
    login_attempts integer DEFAULT 0 NOT NULL,
    seen_at timestamp with time zone,
    email_sent boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    oidc_issuer text,
    oidc_subject text,
    active boolean DEFAULT true NOT NULL,
    scim_id text,
    scim_external_id text,
    CONSTRAINT users_root_role_check CHECK ((root_role = ANY (ARRAY[1, 2, 3]))),
    CONSTRAINT users_username_or_email CHECK (((username IS NOT NULL) OR (email IS NOT NULL)))
);

--
-- Name: users_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.users ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: addon_deliveries addon_deliveries_once; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.addon_deliveries
    ADD CONSTRAINT addon_deliveries_once UNIQUE (addon_id, event_id);

--
-- Name: addon_deliveries addon_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.addon_deliveries
    ADD CONSTRAINT addon_deliveries_pkey PRIMARY KEY (id);

--
-- Name: addons addons_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.addons
    ADD CONSTRAINT addons_pkey PRIMARY KEY (id);

--
-- Name: api_tokens api_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (id);

--
-- Name: api_tokens api_tokens_secret_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_secret_hash_key UNIQUE (secret_hash);

--
-- Name: banners banners_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.banners
    ADD CONSTRAINT banners_pkey PRIMARY KEY (id);

--
-- Name: change_request_changes change_request_changes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_changes
    ADD CONSTRAINT change_request_changes_pkey PRIMARY KEY (id);

--
-- Name: change_request_reviews change_request_reviews_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_reviews
    ADD CONSTRAINT change_request_reviews_pkey PRIMARY KEY (id);

--
-- Name: change_request_settings change_request_settings_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_settings
    ADD CONSTRAINT change_request_settings_pk PRIMARY KEY (project_id, environment_name);

--
-- Name: change_requests change_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_requests
    ADD CONSTRAINT change_requests_pkey PRIMARY KEY (id);

--
-- Name: client_instances client_instances_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.client_instances
    ADD CONSTRAINT client_instances_pk PRIMARY KEY (app_name, instance_id);

--
-- Name: client_metric_variants_daily client_metric_variants_daily_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.client_metric_variants_daily
    ADD CONSTRAINT client_metric_variants_daily_pk PRIMARY KEY (feature_name, environment, app_name, day, variant);

--
-- Name: client_metric_variants client_metric_variants_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.client_metric_variants
    ADD CONSTRAINT client_metric_variants_pk PRIMARY KEY (feature_name, environment, app_name, hour, variant);

--
-- Name: client_metrics_daily client_metrics_daily_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.client_metrics_daily
    ADD CONSTRAINT client_metrics_daily_pk PRIMARY KEY (feature_name, environment, app_name, day);

--
-- Name: client_metrics client_metrics_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.client_metrics
    ADD CONSTRAINT client_metrics_pk PRIMARY KEY (feature_name, environment, app_name, hour);

--
-- Name: context_fields context_fields_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.context_fields
    ADD CONSTRAINT context_fields_pkey PRIMARY KEY (name);

--
-- Name: environments environments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.environments
    ADD CONSTRAINT environments_pkey PRIMARY KEY (name);

--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);

--
-- Name: feature_dependencies feature_dependencies_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_dependencies
    ADD CONSTRAINT feature_dependencies_pk PRIMARY KEY (child, parent);

--
-- Name: feature_environments feature_environments_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_environments
    ADD CONSTRAINT feature_environments_pk PRIMARY KEY (feature_name, environment_name);

--
-- Name: feature_lifecycles feature_lifecycles_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_lifecycles
    ADD CONSTRAINT feature_lifecycles_pk PRIMARY KEY (feature_name, stage);

--
-- Name: feature_strategies feature_strategies_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_strategies
    ADD CONSTRAINT feature_strategies_pkey PRIMARY KEY (id);

--
-- Name: feature_strategy_segments feature_strategy_segments_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_strategy_segments
    ADD CONSTRAINT feature_strategy_segments_pk PRIMARY KEY (strategy_id, segment_id);

--
-- Name: feature_tags feature_tags_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_tags
    ADD CONSTRAINT feature_tags_pk PRIMARY KEY (feature_name, tag_type, tag_value);

--
-- Name: feature_types feature_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_types
    ADD CONSTRAINT feature_types_pkey PRIMARY KEY (id);

--
-- Name: features features_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.features
    ADD CONSTRAINT features_pkey PRIMARY KEY (name);

--
-- Name: group_role group_role_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.group_role
    ADD CONSTRAINT group_role_pkey PRIMARY KEY (project, group_id, role_id);

--
-- Name: group_users group_users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.group_users
    ADD CONSTRAINT group_users_pkey PRIMARY KEY (group_id, user_id);

--
-- Name: groups groups_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_name_key UNIQUE (name);

--
-- Name: groups groups_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_pkey PRIMARY KEY (id);

--
-- Name: groups groups_scim_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_scim_id_key UNIQUE (scim_id);

--
-- Name: kysely_migration_lock kysely_migration_lock_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.kysely_migration_lock
    ADD CONSTRAINT kysely_migration_lock_pkey PRIMARY KEY (id);

--
-- Name: kysely_migration kysely_migration_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.kysely_migration
    ADD CONSTRAINT kysely_migration_pkey PRIMARY KEY (name);

--
-- Name: login_failures login_failures_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.login_failures
    ADD CONSTRAINT login_failures_pkey PRIMARY KEY (id);

--
-- Name: login_streaks login_streaks_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.login_streaks
    ADD CONSTRAINT login_streaks_pk PRIMARY KEY (account, ip);

--
-- Name: oidc_logins oidc_logins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oidc_logins
    ADD CONSTRAINT oidc_logins_pkey PRIMARY KEY (state_hash);

--
-- Name: project_environments project_environments_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_environments
    ADD CONSTRAINT project_environments_pk PRIMARY KEY (project_id, environment_name);

--
-- Name: projects projects_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projects
    ADD CONSTRAINT projects_pkey PRIMARY KEY (id);

--
-- Name: role_user role_user_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.role_user
    ADD CONSTRAINT role_user_pkey PRIMARY KEY (project, user_id, role_id);

--
-- Name: segments segments_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.segments
    ADD CONSTRAINT segments_name_key UNIQUE (name);

--
-- Name: segments segments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.segments
    ADD CONSTRAINT segments_pkey PRIMARY KEY (id);

--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);

--
-- Name: strategy_types strategy_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.strategy_types
    ADD CONSTRAINT strategy_types_pkey PRIMARY KEY (name);

--
-- Name: tag_types tag_types_name_no_colon; Type: CHECK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE public.tag_types
    ADD CONSTRAINT tag_types_name_no_colon CHECK ((strpos(name, ':'::text) = 0)) NOT VALID;

--
-- Name: tag_types tag_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tag_types
    ADD CONSTRAINT tag_types_pkey PRIMARY KEY (name);

--
-- Name: tags tags_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tags
    ADD CONSTRAINT tags_pk PRIMARY KEY (type, value);

--
-- Name: unknown_flags unknown_flags_pk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.unknown_flags
    ADD CONSTRAINT unknown_flags_pk PRIMARY KEY (name, app_name, environment);

--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

--
-- Name: users users_scim_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_scim_id_key UNIQUE (scim_id);

--
-- Name: users users_username_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_username_key UNIQUE (username);

--
-- Name: addon_deliveries_addon_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX addon_deliveries_addon_idx ON public.addon_deliveries USING btree (addon_id, id);

--
-- Name: addon_deliveries_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX addon_deliveries_due_idx ON public.addon_deliveries USING btree (next_attempt_at, id) WHERE (state = 'pending'::text);

--
-- Name: addon_deliveries_event_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX addon_deliveries_event_idx ON public.addon_deliveries USING btree (event_id);

--
-- Name: api_tokens_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_tokens_user_idx ON public.api_tokens USING btree (user_id);

--
-- Name: banners_created_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX banners_created_at_idx ON public.banners USING btree (created_at);

--
-- Name: change_request_changes_cr_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX change_request_changes_cr_idx ON public.change_request_changes USING btree (change_request_id, id);

--
-- Name: change_request_changes_feature_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX change_request_changes_feature_idx ON public.change_request_changes USING btree (feature_name, change_request_id);

--
-- Name: change_request_reviews_cr_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX change_request_reviews_cr_idx ON public.change_request_reviews USING btree (change_request_id, id);

--
-- Name: change_request_reviews_one_approval_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX change_request_reviews_one_approval_idx ON public.change_request_reviews USING btree (change_request_id, user_id) WHERE (kind = 'approval'::text);

--
-- Name: change_requests_actionable_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX change_requests_actionable_idx ON public.change_requests USING btree (id) WHERE (state = ANY (ARRAY['In review'::text, 'Approved'::text, 'Scheduled'::text]));

--
-- Name: change_requests_author_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX change_requests_author_idx ON public.change_requests USING btree (project_id, created_by_user_id, id);

--
-- Name: change_requests_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX change_requests_due_idx ON public.change_requests USING btree (scheduled_at) WHERE ((state = 'Scheduled'::text) AND (schedule_status = 'pending'::text));

--
-- Name: change_requests_one_open_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX change_requests_one_open_idx ON public.change_requests USING btree (project_id, environment_name, created_by_user_id) WHERE (state = ANY (ARRAY['Draft'::text, 'In review'::text, 'Approved'::text]));

--
-- Name: client_metric_variants_daily_day_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX client_metric_variants_daily_day_idx ON public.client_metric_variants_daily USING btree (day);

--
-- Name: client_metric_variants_hour_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX client_metric_variants_hour_idx ON public.client_metric_variants USING btree (hour);

--
-- Name: client_metrics_daily_day_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX client_metrics_daily_day_idx ON public.client_metrics_daily USING btree (day);

--
-- Name: client_metrics_hour_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX client_metrics_hour_idx ON public.client_metrics USING btree (hour);

--
-- Name: events_feature_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_feature_created_idx ON public.events USING btree (feature_name, created_by_user_id) WHERE (type = 'feature-created'::text);

--
-- Name: events_project_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_project_idx ON public.events USING btree (project);

--
-- Name: events_type_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_type_idx ON public.events USING btree (type);

--
-- Name: feature_dependencies_parent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX feature_dependencies_parent_idx ON public.feature_dependencies USING btree (parent);

--
-- Name: feature_environments_environment_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX feature_environments_environment_idx ON public.feature_environments USING btree (environment_name);

--
-- Name: feature_strategies_environment_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX feature_strategies_environment_idx ON public.feature_strategies USING btree (environment_name);

--
-- Name: feature_strategies_feature_env_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX feature_strategies_feature_env_idx ON public.feature_strategies USING btree (feature_name, environment_name, sort_order);

--
-- Name: feature_strategy_segments_segment_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX feature_strategy_segments_segment_idx ON public.feature_strategy_segments USING btree (segment_id);

--
-- Name: feature_tags_tag_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX feature_tags_tag_idx ON public.feature_tags USING btree (tag_type, tag_value);

--
-- Name: feature_tags_value_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX feature_tags_value_trgm_idx ON public.feature_tags USING gin (tag_value public.gin_trgm_ops);

--
-- Name: features_archived_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_archived_created_idx ON public.features USING btree (created_at, name) WHERE (archived_at IS NOT NULL);

--
-- Name: features_archived_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_archived_idx ON public.features USING btree (archived_at) WHERE (archived_at IS NOT NULL);

--
-- Name: features_description_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_description_trgm_idx ON public.features USING gin (description public.gin_trgm_ops) WITH (fastupdate=off);

--
-- Name: features_live_active_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_active_idx ON public.features USING btree (created_at, name) WHERE ((archived_at IS NULL) AND (NOT stale));

--
-- Name: features_live_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_created_idx ON public.features USING btree (created_at, name) WHERE (archived_at IS NULL);

--
-- Name: features_live_last_seen_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_last_seen_idx ON public.features USING btree (last_seen_at) WHERE (archived_at IS NULL);

--
-- Name: features_live_potentially_stale_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_potentially_stale_idx ON public.features USING btree (created_at, name) WHERE ((archived_at IS NULL) AND (NOT stale) AND potentially_stale);

--
-- Name: features_live_project_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_project_created_idx ON public.features USING btree (project_id, created_at, name) WHERE (archived_at IS NULL);

--
-- Name: features_live_project_name_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_project_name_idx ON public.features USING btree (project_id, name) WHERE (archived_at IS NULL);

--
-- Name: features_live_stale_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_stale_idx ON public.features USING btree (created_at, name) WHERE ((archived_at IS NULL) AND stale);

--
-- Name: features_live_type_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_live_type_created_idx ON public.features USING btree (type, created_at, name) WHERE (archived_at IS NULL);

--
-- Name: features_name_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_name_trgm_idx ON public.features USING gin (name public.gin_trgm_ops) WITH (fastupdate=off);

--
-- Name: features_project_name_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_project_name_idx ON public.features USING btree (project_id, name);

--
-- Name: features_tag_keys_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX features_tag_keys_idx ON public.features USING gin (tag_keys) WITH (fastupdate=off);

--
-- Name: group_role_group_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX group_role_group_idx ON public.group_role USING btree (group_id);

--
-- Name: group_users_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX group_users_user_idx ON public.group_users USING btree (user_id);

--
-- Name: groups_name_lower_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX groups_name_lower_idx ON public.groups USING btree (lower(name));

--
-- Name: login_failures_account_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX login_failures_account_idx ON public.login_failures USING btree (account, failed_at);

--
-- Name: login_failures_ip_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX login_failures_ip_idx ON public.login_failures USING btree (ip, failed_at);

--
-- Name: oidc_logins_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oidc_logins_expires_idx ON public.oidc_logins USING btree (expires_at);

--
-- Name: project_environments_environment_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX project_environments_environment_idx ON public.project_environments USING btree (environment_name);

--
-- Name: role_user_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX role_user_user_idx ON public.role_user USING btree (user_id);

--
-- Name: segments_project_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX segments_project_idx ON public.segments USING btree (project_id);

--
-- Name: sessions_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_expires_idx ON public.sessions USING btree (expires_at);

--
-- Name: sessions_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_user_idx ON public.sessions USING btree (user_id, seq);

--
-- Name: unknown_flags_seen_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX unknown_flags_seen_at_idx ON public.unknown_flags USING btree (seen_at);

--
-- Name: users_email_lower_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_email_lower_idx ON public.users USING btree (lower(email));

--
-- Name: users_oidc_identity_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_oidc_identity_idx ON public.users USING btree (oidc_issuer, oidc_subject) WHERE (oidc_subject IS NOT NULL);

--
-- Name: users_username_lower_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_username_lower_key ON public.users USING btree (lower(username));

--
-- Name: addon_deliveries addon_deliveries_notify; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER addon_deliveries_notify AFTER INSERT ON public.addon_deliveries FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_addon_delivery();

--
-- Name: api_tokens api_tokens_auth_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER api_tokens_auth_change AFTER DELETE OR UPDATE ON public.api_tokens FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_auth_change('token', 'id');

--
-- Name: events events_console_notify; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_console_notify AFTER INSERT ON public.events REFERENCING NEW TABLE AS appended FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_console_events();

--
-- Name: feature_dependencies feature_dependencies_flag_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_dependencies_flag_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.feature_dependencies FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: feature_environments feature_environments_flag_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_environments_flag_change AFTER DELETE OR TRUNCATE ON public.feature_environments FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: feature_environments feature_environments_flag_change_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_environments_flag_change_insert AFTER INSERT ON public.feature_environments FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: feature_environments feature_environments_flag_change_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_environments_flag_change_update AFTER UPDATE ON public.feature_environments FOR EACH ROW WHEN (((to_jsonb(old.*) - 'last_seen_at'::text) IS DISTINCT FROM (to_jsonb(new.*) - 'last_seen_at'::text))) EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: feature_strategies feature_strategies_flag_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_strategies_flag_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.feature_strategies FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: feature_strategy_segments feature_strategy_segments_flag_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_strategy_segments_flag_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.feature_strategy_segments FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: feature_tags feature_tags_keys_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_tags_keys_delete AFTER DELETE ON public.feature_tags REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_tag_keys_delete();

--
-- Name: feature_tags feature_tags_keys_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_tags_keys_insert AFTER INSERT ON public.feature_tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_tag_keys_insert();

--
-- Name: feature_tags feature_tags_keys_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER feature_tags_keys_update AFTER UPDATE ON public.feature_tags REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_tag_keys_update();

--
-- Name: features features_flag_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER features_flag_change AFTER INSERT OR DELETE OR TRUNCATE ON public.features FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: features features_flag_change_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER features_flag_change_update AFTER UPDATE ON public.features FOR EACH ROW WHEN ((((to_jsonb(old.*) - 'last_seen_at'::text) - 'tag_keys'::text) IS DISTINCT FROM ((to_jsonb(new.*) - 'last_seen_at'::text) - 'tag_keys'::text))) EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: group_role group_role_auth_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER group_role_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.group_role FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_project_role_change();

--
-- Name: group_users group_users_auth_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER group_users_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.group_users FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_project_role_change();

--
-- Name: projects projects_flag_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER projects_flag_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.projects FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: role_user role_user_auth_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER role_user_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.role_user FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_project_role_change();

--
-- Name: segments segments_flag_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER segments_flag_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.segments FOR EACH STATEMENT EXECUTE FUNCTION public.vexil_notify_flag_change();

--
-- Name: sessions sessions_auth_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER sessions_auth_change AFTER DELETE OR UPDATE OF id, user_id, expires_at ON public.sessions FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_auth_change('user', 'user_id');

--
-- Name: users users_auth_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER users_auth_change AFTER DELETE OR UPDATE OF id, username, email, root_role, password_hash, active, scim_id ON public.users FOR EACH ROW EXECUTE FUNCTION public.vexil_notify_auth_change('user', 'id');

--
-- Name: addon_deliveries addon_deliveries_addon_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.addon_deliveries
    ADD CONSTRAINT addon_deliveries_addon_id_fkey FOREIGN KEY (addon_id) REFERENCES public.addons(id) ON DELETE CASCADE;

--
-- Name: addon_deliveries addon_deliveries_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.addon_deliveries
    ADD CONSTRAINT addon_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id) ON DELETE CASCADE;

--
-- Name: api_tokens api_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: change_request_changes change_request_changes_change_request_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_changes
    ADD CONSTRAINT change_request_changes_change_request_id_fkey FOREIGN KEY (change_request_id) REFERENCES public.change_requests(id) ON DELETE CASCADE;

--
-- Name: change_request_changes change_request_changes_created_by_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_changes
    ADD CONSTRAINT change_request_changes_created_by_user_id_fkey FOREIGN KEY (created_by_user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: change_request_reviews change_request_reviews_change_request_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_reviews
    ADD CONSTRAINT change_request_reviews_change_request_id_fkey FOREIGN KEY (change_request_id) REFERENCES public.change_requests(id) ON DELETE CASCADE;

--
-- Name: change_request_reviews change_request_reviews_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_reviews
    ADD CONSTRAINT change_request_reviews_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: change_request_settings change_request_settings_environment_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_settings
    ADD CONSTRAINT change_request_settings_environment_name_fkey FOREIGN KEY (environment_name) REFERENCES public.environments(name) ON DELETE CASCADE;

--
-- Name: change_request_settings change_request_settings_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_request_settings
    ADD CONSTRAINT change_request_settings_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: change_requests change_requests_created_by_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_requests
    ADD CONSTRAINT change_requests_created_by_user_id_fkey FOREIGN KEY (created_by_user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: change_requests change_requests_environment_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_requests
    ADD CONSTRAINT change_requests_environment_name_fkey FOREIGN KEY (environment_name) REFERENCES public.environments(name) ON DELETE CASCADE;

--
-- Name: change_requests change_requests_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_requests
    ADD CONSTRAINT change_requests_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: feature_dependencies feature_dependencies_child_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_dependencies
    ADD CONSTRAINT feature_dependencies_child_fkey FOREIGN KEY (child) REFERENCES public.features(name) ON DELETE CASCADE;

--
-- Name: feature_dependencies feature_dependencies_parent_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_dependencies
    ADD CONSTRAINT feature_dependencies_parent_fkey FOREIGN KEY (parent) REFERENCES public.features(name) ON DELETE CASCADE;

--
-- Name: feature_environments feature_environments_environment_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_environments
    ADD CONSTRAINT feature_environments_environment_name_fkey FOREIGN KEY (environment_name) REFERENCES public.environments(name) ON DELETE CASCADE;

--
-- Name: feature_environments feature_environments_feature_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_environments
    ADD CONSTRAINT feature_environments_feature_name_fkey FOREIGN KEY (feature_name) REFERENCES public.features(name) ON DELETE CASCADE;

--
-- Name: feature_lifecycles feature_lifecycles_feature_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_lifecycles
    ADD CONSTRAINT feature_lifecycles_feature_name_fkey FOREIGN KEY (feature_name) REFERENCES public.features(name) ON DELETE CASCADE;

--
-- Name: feature_strategies feature_strategies_environment_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_strategies
    ADD CONSTRAINT feature_strategies_environment_name_fkey FOREIGN KEY (environment_name) REFERENCES public.environments(name) ON DELETE CASCADE;

--
-- Name: feature_strategies feature_strategies_feature_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_strategies
    ADD CONSTRAINT feature_strategies_feature_name_fkey FOREIGN KEY (feature_name) REFERENCES public.features(name) ON DELETE CASCADE;

--
-- Name: feature_strategy_segments feature_strategy_segments_segment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_strategy_segments
    ADD CONSTRAINT feature_strategy_segments_segment_id_fkey FOREIGN KEY (segment_id) REFERENCES public.segments(id) ON DELETE RESTRICT;

--
-- Name: feature_strategy_segments feature_strategy_segments_strategy_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_strategy_segments
    ADD CONSTRAINT feature_strategy_segments_strategy_id_fkey FOREIGN KEY (strategy_id) REFERENCES public.feature_strategies(id) ON DELETE CASCADE;

--
-- Name: feature_tags feature_tags_feature_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_tags
    ADD CONSTRAINT feature_tags_feature_name_fkey FOREIGN KEY (feature_name) REFERENCES public.features(name) ON DELETE CASCADE;

--
-- Name: feature_tags feature_tags_tag_fk; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feature_tags
    ADD CONSTRAINT feature_tags_tag_fk FOREIGN KEY (tag_type, tag_value) REFERENCES public.tags(type, value) ON DELETE CASCADE;

--
-- Name: features features_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.features
    ADD CONSTRAINT features_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: group_role group_role_group_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.group_role
    ADD CONSTRAINT group_role_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id) ON DELETE CASCADE;

--
-- Name: group_role group_role_project_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.group_role
    ADD CONSTRAINT group_role_project_fkey FOREIGN KEY (project) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: group_users group_users_group_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.group_users
    ADD CONSTRAINT group_users_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id) ON DELETE CASCADE;

--
-- Name: group_users group_users_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.group_users
    ADD CONSTRAINT group_users_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: project_environments project_environments_environment_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_environments
    ADD CONSTRAINT project_environments_environment_name_fkey FOREIGN KEY (environment_name) REFERENCES public.environments(name) ON DELETE CASCADE;

--
-- Name: project_environments project_environments_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_environments
    ADD CONSTRAINT project_environments_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: role_user role_user_project_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.role_user
    ADD CONSTRAINT role_user_project_fkey FOREIGN KEY (project) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: role_user role_user_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.role_user
    ADD CONSTRAINT role_user_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: segments segments_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.segments
    ADD CONSTRAINT segments_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: sessions sessions_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: tags tags_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tags
    ADD CONSTRAINT tags_type_fkey FOREIGN KEY (type) REFERENCES public.tag_types(name) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
