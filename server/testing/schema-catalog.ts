import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Queryable } from '../../supabase/functions/_shared/db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { seedPglite } from './pglite-template.ts';

/**
 * What the migrations made in public and app_private, read from the catalog as sorted
 * lines of text, so that two databases compare with one `toEqual` and a
 * difference reads as a diff: schemas, tables and their row security, columns
 * (in order, with type, default, nullability, identity), constraints (not null ones
 * aside, which PostgreSQL 17 and PGlite list as constraints too), indexes,
 * functions (their whole definition), triggers, policies, privileges and
 * comments. Owners are left out: they are whoever ran the migrations.
 */
export async function readSchemaCatalog(db: Queryable): Promise<string[]> {
  const lines: string[] = [];
  for (const [kind, sql] of Object.entries(catalogQueries)) {
    const { rows } = await db.query<{ line: string }>(sql, [['public', 'app_private']]);
    for (const row of rows) lines.push(`${kind}: ${row.line}`);
  }
  return lines.sort();
}

/**
 * The catalog of a new PGlite database given every migration, as `npm start`
 * makes it: what other databases are compared with.
 */
export async function readNewPgliteCatalog(): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hijama-schema-'));
  // A new cluster, copied rather than made by initdb again (pglite-template.ts).
  await seedPglite(dataDir, { empty: true });
  const pglite = await openPglite(path.join(dataDir, 'pgdata'));
  try {
    await migrate(pglite);
    return await readSchemaCatalog(pglite);
  } finally {
    await pglite.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Privileges as "grantee=privilege", the grantor left out; `public` for PUBLIC.
// MAINTAIN is left out: PostgreSQL 17 (PGlite) has it and `grant all` gives it,
// PostgreSQL 15 and 16 do not know it.
const aclText = (acl: string) => `coalesce((
  select string_agg(a.grantee_name || '=' || a.privilege_type
      || case when a.is_grantable then '*' else '' end,
    ', ' order by a.grantee_name, a.privilege_type)
  from (
    select case when e.grantee = 0 then 'public' else pg_get_userbyid(e.grantee)::text end
      as grantee_name, e.privilege_type, e.is_grantable
    from aclexplode(${acl}) e
  ) a
  where a.privilege_type <> 'MAINTAIN'
    and a.grantee_name in ('public', 'anon', 'authenticated', 'service_role')
), '')`;

const catalogQueries: Record<string, string> = {
  schema: `
    select n.nspname || ' privileges[' || ${aclText('n.nspacl')} || '] comment[' ||
      coalesce(obj_description(n.oid, 'pg_namespace'), '') || ']' as line
    from pg_namespace n where n.nspname = any($1)`,
  relation: `
    select n.nspname || '.' || c.relname || ' kind=' || c.relkind::text
      || ' rls=' || c.relrowsecurity || ' force_rls=' || c.relforcerowsecurity
      || ' privileges[' || ${aclText('c.relacl')} || ']'
      || ' comment[' || coalesce(obj_description(c.oid, 'pg_class'), '') || ']' as line
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  column: `
    select n.nspname || '.' || c.relname || ' #'
      || row_number() over (partition by c.oid order by a.attnum) || ' ' || a.attname
      || ' ' || format_type(a.atttypid, a.atttypmod)
      || case when a.attnotnull then ' not null' else '' end
      || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
      || case a.attidentity when 'a' then ' identity always' when 'd' then ' identity by default' else '' end
      || case when a.attgenerated <> '' then ' generated' else '' end
      || ' privileges[' || ${aclText('a.attacl')} || ']'
      || ' comment[' || coalesce(col_description(c.oid, a.attnum), '') || ']' as line
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'f')
      and a.attnum > 0 and not a.attisdropped`,
  constraint: `
    select n.nspname || '.' || c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid)
      || case when k.convalidated then '' else ' [not validated]' end
      || case when k.condeferrable then ' deferrable' else '' end
      || case when k.condeferred then ' initially deferred' else '' end as line
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any($1) and k.contype not in ('t', 'n')`,
  index: `
    select pg_get_indexdef(i.indexrelid) as line
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any($1)`,
  function: `
    select p.oid::regprocedure::text
      || ' privileges[' || ${aclText("coalesce(p.proacl, acldefault('f', p.proowner))")} || ']'
      || ' comment[' || coalesce(obj_description(p.oid, 'pg_proc'), '') || ']'
      || E'\\n' || pg_get_functiondef(p.oid) as line
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = any($1)
      and not exists (select 1 from pg_depend dep where dep.objid = p.oid and dep.deptype = 'e')`,
  trigger: `
    select pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text as line
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any($1) and not t.tgisinternal`,
  policy: `
    select p.schemaname || '.' || p.tablename || ' "' || p.policyname || '" ' || p.permissive
      || ' ' || p.cmd || ' to ' || array_to_string(p.roles, ',')
      || ' using(' || coalesce(p.qual, '') || ') check(' || coalesce(p.with_check, '') || ')' as line
    from pg_policies p where p.schemaname = any($1)`,
};
