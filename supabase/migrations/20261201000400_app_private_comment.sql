-- The description of the schema app_private, made by the first migration: here
-- so that hosted Supabase, which runs the migrations alone, has it too. It was
-- set by the server's migrate step only, so a self-hosted database and a
-- hosted one differed by this comment.
comment on schema app_private is 'Server bookkeeping; never exposed through the REST API.';
