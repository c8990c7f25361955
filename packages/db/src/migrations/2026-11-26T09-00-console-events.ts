import { type Kysely, sql } from "kysely";

// Open consoles hear what changed (docs/console-live.md#the-notice): every statement that appends to the
// event log, on any instance or by hand in SQL, tells every instance at commit through NOTIFY what it
// touched (type, project, environment, feature, change request), never the event's data. A notice
// has at most 8000 bytes; past a few kilobytes (an import) it says "everything" instead.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function vexil_notify_console_events() returns trigger language plpgsql as $$
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
    end $$`.execute(db);
  await sql`create trigger events_console_notify after insert on events
            referencing new table as appended
            for each statement execute function vexil_notify_console_events()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger events_console_notify on events`.execute(db);
  await sql`drop function vexil_notify_console_events()`.execute(db);
}
