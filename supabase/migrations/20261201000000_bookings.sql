-- Booking requests sent from the public site, and the rules every request is
-- held to, whoever inserts it.
--
-- The schema of release 1.0.0 is this file and the three after it, one per
-- concern: the bookings and their rules (here), the limits on visitors, the
-- notifications, and the wake-up of the hosted notifier. They are applied as
-- they are by the project's own server (on PGlite or PostgreSQL) and by
-- `supabase db push` on hosted Supabase. From 1.0.0 on, migrations are
-- append-only: a change is a new file after these (docs/development.md).
--
-- The rules are supabase/functions/_shared/core/booking-rules.ts's, in the
-- database, so that a direct insert through hosted Supabase is held to exactly
-- what the form and the server accept (server/db/field-rules-sql.test.ts
-- compares the two):
--
-- - every field is trimmed of the same white space as in core (`trimmedSpace`:
--   what JavaScript's trim removes), by a trigger, before anything is checked;
-- - no field holds a control or format character (Unicode Cc, Cf) or a line or
--   paragraph separator (core's `hiddenCharacterRanges`);
-- - a phone needs at least 7 digits besides its other allowed characters;
-- - lengths count characters (code points), as `char_length` does;
-- - the full name needs a letter, and no more than 4 combining marks in a row
--   (core's fullName: needsLetter and maxMarksInARow), so that a name cannot be
--   made of characters that show nothing (two U+3164 HANGUL FILLER, U+2800
--   BRAILLE PATTERN BLANK, a combining grapheme joiner) or of marks stacked into
--   a tower over the text. Real names use at most 2 in a row (Arabic's shadda
--   with a vowel sign, Vietnamese's two accents);
-- - the Instagram field is stored as a user name, whatever way it was typed
--   (core's `normaliseInstagram`; see app_private.instagram_handle below).

-- Supabase's API roles. Hosted Supabase already has them; elsewhere they are
-- created here, without login, for the server to switch into.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
exception
  -- Another database of the same cluster created the role at the same moment.
  when duplicate_object or unique_violation then null;
end
$$;

-- Server bookkeeping, never exposed through the REST API (on Supabase only
-- `public` and `graphql_public` are exposed by default); the API roles have no
-- privilege on it. The server's migrate step may have made it already.
create schema if not exists app_private;
revoke all on schema app_private from public, anon, authenticated, service_role;

-- pgcrypto signs and hashes (proofs of work, answer links, acknowledgements),
-- in the schema where hosted Supabase keeps it.
create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

-- The rules' functions. The check constraints call them as the inserting role.

create function app_private.trim_booking_text(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select btrim(
    value,
    U&'\0009\000A\000B\000C\000D\0020\00A0\1680\2000\2001\2002\2003\2004\2005\2006\2007\2008\2009\200A\2028\2029\202F\205F\3000\FEFF'
  )
$$;

comment on function app_private.trim_booking_text(text) is
  'Trims the white space that JavaScript''s trim removes (supabase/functions/_shared/core/booking-rules.ts, trimmedSpace).';

create function app_private.has_hidden_character(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select value ~ U&'[\0001-\001F\007F-\009F\00AD\0600-\0605\061C\06DD\070F\0890-\0891\08E2\180E\200B-\200F\2028-\202E\2060-\2064\2066-\206F\FEFF\FFF9-\FFFB\+0110BD\+0110CD\+013430-\+01343F\+01BCA0-\+01BCA3\+01D173-\+01D17A\+0E0001\+0E0020-\+0E007F]'
$$;

comment on function app_private.has_hidden_character(text) is
  'Whether a text holds a character no person types (supabase/functions/_shared/core/booking-rules.ts, hiddenCharacterRanges).';

-- PostgreSQL's regular expressions have no \p{L}, and [[:alpha:]] follows the
-- database's locale (under C, ASCII alone): the letters and marks are spelled
-- out as ranges of code points, the same as
-- supabase/functions/_shared/core/letters-and-marks.ts (printed together by
-- scripts/unicode-name-ranges.ts, Unicode 17.0), so that PGlite, PostgreSQL and
-- Supabase, under any locale, judge as the form and the server do;
-- server/db/field-rules-sql.test.ts compares them code point by code point.

create function app_private.has_letter(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select value ~ (
    U&'[\0041-\005A\0061-\007A\00AA\00B5\00BA\00C0-\00D6\00D8-\00F6\00F8-\02C1\02C6-\02D1' ||
    U&'\02E0-\02E4\02EC\02EE\0370-\0374\0376-\0377\037A-\037D\037F\0386\0388-\038A\038C' ||
    U&'\038E-\03A1\03A3-\03F5\03F7-\0481\048A-\052F\0531-\0556\0559\0560-\0588\05D0-\05EA' ||
    U&'\05EF-\05F2\0620-\064A\066E-\066F\0671-\06D3\06D5\06E5-\06E6\06EE-\06EF\06FA-\06FC\06FF' ||
    U&'\0710\0712-\072F\074D-\07A5\07B1\07CA-\07EA\07F4-\07F5\07FA\0800-\0815\081A\0824\0828' ||
    U&'\0840-\0858\0860-\086A\0870-\0887\0889-\088F\08A0-\08C9\0904-\0939\093D\0950\0958-\0961' ||
    U&'\0971-\0980\0985-\098C\098F-\0990\0993-\09A8\09AA-\09B0\09B2\09B6-\09B9\09BD\09CE' ||
    U&'\09DC-\09DD\09DF-\09E1\09F0-\09F1\09FC\0A05-\0A0A\0A0F-\0A10\0A13-\0A28\0A2A-\0A30' ||
    U&'\0A32-\0A33\0A35-\0A36\0A38-\0A39\0A59-\0A5C\0A5E\0A72-\0A74\0A85-\0A8D\0A8F-\0A91' ||
    U&'\0A93-\0AA8\0AAA-\0AB0\0AB2-\0AB3\0AB5-\0AB9\0ABD\0AD0\0AE0-\0AE1\0AF9\0B05-\0B0C' ||
    U&'\0B0F-\0B10\0B13-\0B28\0B2A-\0B30\0B32-\0B33\0B35-\0B39\0B3D\0B5C-\0B5D\0B5F-\0B61\0B71' ||
    U&'\0B83\0B85-\0B8A\0B8E-\0B90\0B92-\0B95\0B99-\0B9A\0B9C\0B9E-\0B9F\0BA3-\0BA4\0BA8-\0BAA' ||
    U&'\0BAE-\0BB9\0BD0\0C05-\0C0C\0C0E-\0C10\0C12-\0C28\0C2A-\0C39\0C3D\0C58-\0C5A\0C5C-\0C5D' ||
    U&'\0C60-\0C61\0C80\0C85-\0C8C\0C8E-\0C90\0C92-\0CA8\0CAA-\0CB3\0CB5-\0CB9\0CBD\0CDC-\0CDE' ||
    U&'\0CE0-\0CE1\0CF1-\0CF2\0D04-\0D0C\0D0E-\0D10\0D12-\0D3A\0D3D\0D4E\0D54-\0D56\0D5F-\0D61' ||
    U&'\0D7A-\0D7F\0D85-\0D96\0D9A-\0DB1\0DB3-\0DBB\0DBD\0DC0-\0DC6\0E01-\0E30\0E32-\0E33' ||
    U&'\0E40-\0E46\0E81-\0E82\0E84\0E86-\0E8A\0E8C-\0EA3\0EA5\0EA7-\0EB0\0EB2-\0EB3\0EBD' ||
    U&'\0EC0-\0EC4\0EC6\0EDC-\0EDF\0F00\0F40-\0F47\0F49-\0F6C\0F88-\0F8C\1000-\102A\103F' ||
    U&'\1050-\1055\105A-\105D\1061\1065-\1066\106E-\1070\1075-\1081\108E\10A0-\10C5\10C7\10CD' ||
    U&'\10D0-\10FA\10FC-\115E\1161-\1248\124A-\124D\1250-\1256\1258\125A-\125D\1260-\1288' ||
    U&'\128A-\128D\1290-\12B0\12B2-\12B5\12B8-\12BE\12C0\12C2-\12C5\12C8-\12D6\12D8-\1310' ||
    U&'\1312-\1315\1318-\135A\1380-\138F\13A0-\13F5\13F8-\13FD\1401-\166C\166F-\167F\1681-\169A' ||
    U&'\16A0-\16EA\16F1-\16F8\1700-\1711\171F-\1731\1740-\1751\1760-\176C\176E-\1770\1780-\17B3' ||
    U&'\17D7\17DC\1820-\1878\1880-\1884\1887-\18A8\18AA\18B0-\18F5\1900-\191E\1950-\196D' ||
    U&'\1970-\1974\1980-\19AB\19B0-\19C9\1A00-\1A16\1A20-\1A54\1AA7\1B05-\1B33\1B45-\1B4C' ||
    U&'\1B83-\1BA0\1BAE-\1BAF\1BBA-\1BE5\1C00-\1C23\1C4D-\1C4F\1C5A-\1C7D\1C80-\1C8A\1C90-\1CBA' ||
    U&'\1CBD-\1CBF\1CE9-\1CEC\1CEE-\1CF3\1CF5-\1CF6\1CFA\1D00-\1DBF\1E00-\1F15\1F18-\1F1D' ||
    U&'\1F20-\1F45\1F48-\1F4D\1F50-\1F57\1F59\1F5B\1F5D\1F5F-\1F7D\1F80-\1FB4\1FB6-\1FBC\1FBE' ||
    U&'\1FC2-\1FC4\1FC6-\1FCC\1FD0-\1FD3\1FD6-\1FDB\1FE0-\1FEC\1FF2-\1FF4\1FF6-\1FFC\2071\207F' ||
    U&'\2090-\209C\2102\2107\210A-\2113\2115\2119-\211D\2124\2126\2128\212A-\212D\212F-\2139' ||
    U&'\213C-\213F\2145-\2149\214E\2183-\2184\2C00-\2CE4\2CEB-\2CEE\2CF2-\2CF3\2D00-\2D25\2D27' ||
    U&'\2D2D\2D30-\2D67\2D6F\2D80-\2D96\2DA0-\2DA6\2DA8-\2DAE\2DB0-\2DB6\2DB8-\2DBE\2DC0-\2DC6' ||
    U&'\2DC8-\2DCE\2DD0-\2DD6\2DD8-\2DDE\2E2F\3005-\3006\3031-\3035\303B-\303C\3041-\3096' ||
    U&'\309D-\309F\30A1-\30FA\30FC-\30FF\3105-\312F\3131-\3163\3165-\318E\31A0-\31BF\31F0-\31FF' ||
    U&'\3400-\4DBF\4E00-\A48C\A4D0-\A4FD\A500-\A60C\A610-\A61F\A62A-\A62B\A640-\A66E\A67F-\A69D' ||
    U&'\A6A0-\A6E5\A717-\A71F\A722-\A788\A78B-\A7DC\A7F1-\A801\A803-\A805\A807-\A80A\A80C-\A822' ||
    U&'\A840-\A873\A882-\A8B3\A8F2-\A8F7\A8FB\A8FD-\A8FE\A90A-\A925\A930-\A946\A960-\A97C' ||
    U&'\A984-\A9B2\A9CF\A9E0-\A9E4\A9E6-\A9EF\A9FA-\A9FE\AA00-\AA28\AA40-\AA42\AA44-\AA4B' ||
    U&'\AA60-\AA76\AA7A\AA7E-\AAAF\AAB1\AAB5-\AAB6\AAB9-\AABD\AAC0\AAC2\AADB-\AADD\AAE0-\AAEA' ||
    U&'\AAF2-\AAF4\AB01-\AB06\AB09-\AB0E\AB11-\AB16\AB20-\AB26\AB28-\AB2E\AB30-\AB5A\AB5C-\AB69' ||
    U&'\AB70-\ABE2\AC00-\D7A3\D7B0-\D7C6\D7CB-\D7FB\F900-\FA6D\FA70-\FAD9\FB00-\FB06\FB13-\FB17' ||
    U&'\FB1D\FB1F-\FB28\FB2A-\FB36\FB38-\FB3C\FB3E\FB40-\FB41\FB43-\FB44\FB46-\FBB1\FBD3-\FD3D' ||
    U&'\FD50-\FD8F\FD92-\FDC7\FDF0-\FDFB\FE70-\FE74\FE76-\FEFC\FF21-\FF3A\FF41-\FF5A\FF66-\FF9F' ||
    U&'\FFA1-\FFBE\FFC2-\FFC7\FFCA-\FFCF\FFD2-\FFD7\FFDA-\FFDC\+010000-\+01000B\+01000D-\+010026' ||
    U&'\+010028-\+01003A\+01003C-\+01003D\+01003F-\+01004D\+010050-\+01005D\+010080-\+0100FA' ||
    U&'\+010280-\+01029C\+0102A0-\+0102D0\+010300-\+01031F\+01032D-\+010340\+010342-\+010349' ||
    U&'\+010350-\+010375\+010380-\+01039D\+0103A0-\+0103C3\+0103C8-\+0103CF\+010400-\+01049D' ||
    U&'\+0104B0-\+0104D3\+0104D8-\+0104FB\+010500-\+010527\+010530-\+010563\+010570-\+01057A' ||
    U&'\+01057C-\+01058A\+01058C-\+010592\+010594-\+010595\+010597-\+0105A1\+0105A3-\+0105B1' ||
    U&'\+0105B3-\+0105B9\+0105BB-\+0105BC\+0105C0-\+0105F3\+010600-\+010736\+010740-\+010755' ||
    U&'\+010760-\+010767\+010780-\+010785\+010787-\+0107B0\+0107B2-\+0107BA\+010800-\+010805' ||
    U&'\+010808\+01080A-\+010835\+010837-\+010838\+01083C\+01083F-\+010855\+010860-\+010876' ||
    U&'\+010880-\+01089E\+0108E0-\+0108F2\+0108F4-\+0108F5\+010900-\+010915\+010920-\+010939' ||
    U&'\+010940-\+010959\+010980-\+0109B7\+0109BE-\+0109BF\+010A00\+010A10-\+010A13' ||
    U&'\+010A15-\+010A17\+010A19-\+010A35\+010A60-\+010A7C\+010A80-\+010A9C\+010AC0-\+010AC7' ||
    U&'\+010AC9-\+010AE4\+010B00-\+010B35\+010B40-\+010B55\+010B60-\+010B72\+010B80-\+010B91' ||
    U&'\+010C00-\+010C48\+010C80-\+010CB2\+010CC0-\+010CF2\+010D00-\+010D23\+010D4A-\+010D65' ||
    U&'\+010D6F-\+010D85\+010E80-\+010EA9\+010EB0-\+010EB1\+010EC2-\+010EC7\+010F00-\+010F1C' ||
    U&'\+010F27\+010F30-\+010F45\+010F70-\+010F81\+010FB0-\+010FC4\+010FE0-\+010FF6' ||
    U&'\+011003-\+011037\+011071-\+011072\+011075\+011083-\+0110AF\+0110D0-\+0110E8' ||
    U&'\+011103-\+011126\+011144\+011147\+011150-\+011172\+011176\+011183-\+0111B2' ||
    U&'\+0111C1-\+0111C4\+0111DA\+0111DC\+011200-\+011211\+011213-\+01122B\+01123F-\+011240' ||
    U&'\+011280-\+011286\+011288\+01128A-\+01128D\+01128F-\+01129D\+01129F-\+0112A8' ||
    U&'\+0112B0-\+0112DE\+011305-\+01130C\+01130F-\+011310\+011313-\+011328\+01132A-\+011330' ||
    U&'\+011332-\+011333\+011335-\+011339\+01133D\+011350\+01135D-\+011361\+011380-\+011389' ||
    U&'\+01138B\+01138E\+011390-\+0113B5\+0113B7\+0113D1\+0113D3\+011400-\+011434' ||
    U&'\+011447-\+01144A\+01145F-\+011461\+011480-\+0114AF\+0114C4-\+0114C5\+0114C7' ||
    U&'\+011580-\+0115AE\+0115D8-\+0115DB\+011600-\+01162F\+011644\+011680-\+0116AA\+0116B8' ||
    U&'\+011700-\+01171A\+011740-\+011746\+011800-\+01182B\+0118A0-\+0118DF\+0118FF-\+011906' ||
    U&'\+011909\+01190C-\+011913\+011915-\+011916\+011918-\+01192F\+01193F\+011941' ||
    U&'\+0119A0-\+0119A7\+0119AA-\+0119D0\+0119E1\+0119E3\+011A00\+011A0B-\+011A32\+011A3A' ||
    U&'\+011A50\+011A5C-\+011A89\+011A9D\+011AB0-\+011AF8\+011BC0-\+011BE0\+011C00-\+011C08' ||
    U&'\+011C0A-\+011C2E\+011C40\+011C72-\+011C8F\+011D00-\+011D06\+011D08-\+011D09' ||
    U&'\+011D0B-\+011D30\+011D46\+011D60-\+011D65\+011D67-\+011D68\+011D6A-\+011D89\+011D98' ||
    U&'\+011DB0-\+011DDB\+011EE0-\+011EF2\+011F02\+011F04-\+011F10\+011F12-\+011F33\+011FB0' ||
    U&'\+012000-\+012399\+012480-\+012543\+012F90-\+012FF0\+013000-\+01342F\+013441-\+013446' ||
    U&'\+013460-\+0143FA\+014400-\+014646\+016100-\+01611D\+016800-\+016A38\+016A40-\+016A5E' ||
    U&'\+016A70-\+016ABE\+016AD0-\+016AED\+016B00-\+016B2F\+016B40-\+016B43\+016B63-\+016B77' ||
    U&'\+016B7D-\+016B8F\+016D40-\+016D6C\+016E40-\+016E7F\+016EA0-\+016EB8\+016EBB-\+016ED3' ||
    U&'\+016F00-\+016F4A\+016F50\+016F93-\+016F9F\+016FE0-\+016FE1\+016FE3\+016FF2-\+016FF3' ||
    U&'\+017000-\+018CD5\+018CFF-\+018D1E\+018D80-\+018DF2\+01AFF0-\+01AFF3\+01AFF5-\+01AFFB' ||
    U&'\+01AFFD-\+01AFFE\+01B000-\+01B122\+01B132\+01B150-\+01B152\+01B155\+01B164-\+01B167' ||
    U&'\+01B170-\+01B2FB\+01BC00-\+01BC6A\+01BC70-\+01BC7C\+01BC80-\+01BC88\+01BC90-\+01BC99' ||
    U&'\+01D400-\+01D454\+01D456-\+01D49C\+01D49E-\+01D49F\+01D4A2\+01D4A5-\+01D4A6' ||
    U&'\+01D4A9-\+01D4AC\+01D4AE-\+01D4B9\+01D4BB\+01D4BD-\+01D4C3\+01D4C5-\+01D505' ||
    U&'\+01D507-\+01D50A\+01D50D-\+01D514\+01D516-\+01D51C\+01D51E-\+01D539\+01D53B-\+01D53E' ||
    U&'\+01D540-\+01D544\+01D546\+01D54A-\+01D550\+01D552-\+01D6A5\+01D6A8-\+01D6C0' ||
    U&'\+01D6C2-\+01D6DA\+01D6DC-\+01D6FA\+01D6FC-\+01D714\+01D716-\+01D734\+01D736-\+01D74E' ||
    U&'\+01D750-\+01D76E\+01D770-\+01D788\+01D78A-\+01D7A8\+01D7AA-\+01D7C2\+01D7C4-\+01D7CB' ||
    U&'\+01DF00-\+01DF1E\+01DF25-\+01DF2A\+01E030-\+01E06D\+01E100-\+01E12C\+01E137-\+01E13D' ||
    U&'\+01E14E\+01E290-\+01E2AD\+01E2C0-\+01E2EB\+01E4D0-\+01E4EB\+01E5D0-\+01E5ED\+01E5F0' ||
    U&'\+01E6C0-\+01E6DE\+01E6E0-\+01E6E2\+01E6E4-\+01E6E5\+01E6E7-\+01E6ED\+01E6F0-\+01E6F4' ||
    U&'\+01E6FE-\+01E6FF\+01E7E0-\+01E7E6\+01E7E8-\+01E7EB\+01E7ED-\+01E7EE\+01E7F0-\+01E7FE' ||
    U&'\+01E800-\+01E8C4\+01E900-\+01E943\+01E94B\+01EE00-\+01EE03\+01EE05-\+01EE1F' ||
    U&'\+01EE21-\+01EE22\+01EE24\+01EE27\+01EE29-\+01EE32\+01EE34-\+01EE37\+01EE39\+01EE3B' ||
    U&'\+01EE42\+01EE47\+01EE49\+01EE4B\+01EE4D-\+01EE4F\+01EE51-\+01EE52\+01EE54\+01EE57\+01EE59' ||
    U&'\+01EE5B\+01EE5D\+01EE5F\+01EE61-\+01EE62\+01EE64\+01EE67-\+01EE6A\+01EE6C-\+01EE72' ||
    U&'\+01EE74-\+01EE77\+01EE79-\+01EE7C\+01EE7E\+01EE80-\+01EE89\+01EE8B-\+01EE9B' ||
    U&'\+01EEA1-\+01EEA3\+01EEA5-\+01EEA9\+01EEAB-\+01EEBB\+020000-\+02A6DF\+02A700-\+02B81D' ||
    U&'\+02B820-\+02CEAD\+02CEB0-\+02EBE0\+02EBF0-\+02EE5D\+02F800-\+02FA1D\+030000-\+03134A' ||
    U&'\+031350-\+033479]'
  )
$$;

comment on function app_private.has_letter(text) is
  'Whether a text holds a letter of any script, the blank Hangul fillers aside (supabase/functions/_shared/core/letters-and-marks.ts, letterRanges).';

create function app_private.has_more_marks_in_a_row(value text, most integer)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select value ~ (
    U&'[\0300-\036F\0483-\0489\0591-\05BD\05BF\05C1-\05C2\05C4-\05C5\05C7\0610-\061A\064B-\065F' ||
    U&'\0670\06D6-\06DC\06DF-\06E4\06E7-\06E8\06EA-\06ED\0711\0730-\074A\07A6-\07B0\07EB-\07F3' ||
    U&'\07FD\0816-\0819\081B-\0823\0825-\0827\0829-\082D\0859-\085B\0897-\089F\08CA-\08E1' ||
    U&'\08E3-\0903\093A-\093C\093E-\094F\0951-\0957\0962-\0963\0981-\0983\09BC\09BE-\09C4' ||
    U&'\09C7-\09C8\09CB-\09CD\09D7\09E2-\09E3\09FE\0A01-\0A03\0A3C\0A3E-\0A42\0A47-\0A48' ||
    U&'\0A4B-\0A4D\0A51\0A70-\0A71\0A75\0A81-\0A83\0ABC\0ABE-\0AC5\0AC7-\0AC9\0ACB-\0ACD' ||
    U&'\0AE2-\0AE3\0AFA-\0AFF\0B01-\0B03\0B3C\0B3E-\0B44\0B47-\0B48\0B4B-\0B4D\0B55-\0B57' ||
    U&'\0B62-\0B63\0B82\0BBE-\0BC2\0BC6-\0BC8\0BCA-\0BCD\0BD7\0C00-\0C04\0C3C\0C3E-\0C44' ||
    U&'\0C46-\0C48\0C4A-\0C4D\0C55-\0C56\0C62-\0C63\0C81-\0C83\0CBC\0CBE-\0CC4\0CC6-\0CC8' ||
    U&'\0CCA-\0CCD\0CD5-\0CD6\0CE2-\0CE3\0CF3\0D00-\0D03\0D3B-\0D3C\0D3E-\0D44\0D46-\0D48' ||
    U&'\0D4A-\0D4D\0D57\0D62-\0D63\0D81-\0D83\0DCA\0DCF-\0DD4\0DD6\0DD8-\0DDF\0DF2-\0DF3\0E31' ||
    U&'\0E34-\0E3A\0E47-\0E4E\0EB1\0EB4-\0EBC\0EC8-\0ECE\0F18-\0F19\0F35\0F37\0F39\0F3E-\0F3F' ||
    U&'\0F71-\0F84\0F86-\0F87\0F8D-\0F97\0F99-\0FBC\0FC6\102B-\103E\1056-\1059\105E-\1060' ||
    U&'\1062-\1064\1067-\106D\1071-\1074\1082-\108D\108F\109A-\109D\135D-\135F\1712-\1715' ||
    U&'\1732-\1734\1752-\1753\1772-\1773\17B4-\17D3\17DD\180B-\180D\180F\1885-\1886\18A9' ||
    U&'\1920-\192B\1930-\193B\1A17-\1A1B\1A55-\1A5E\1A60-\1A7C\1A7F\1AB0-\1ADD\1AE0-\1AEB' ||
    U&'\1B00-\1B04\1B34-\1B44\1B6B-\1B73\1B80-\1B82\1BA1-\1BAD\1BE6-\1BF3\1C24-\1C37\1CD0-\1CD2' ||
    U&'\1CD4-\1CE8\1CED\1CF4\1CF7-\1CF9\1DC0-\1DFF\20D0-\20F0\2CEF-\2CF1\2D7F\2DE0-\2DFF' ||
    U&'\302A-\302F\3099-\309A\A66F-\A672\A674-\A67D\A69E-\A69F\A6F0-\A6F1\A802\A806\A80B' ||
    U&'\A823-\A827\A82C\A880-\A881\A8B4-\A8C5\A8E0-\A8F1\A8FF\A926-\A92D\A947-\A953\A980-\A983' ||
    U&'\A9B3-\A9C0\A9E5\AA29-\AA36\AA43\AA4C-\AA4D\AA7B-\AA7D\AAB0\AAB2-\AAB4\AAB7-\AAB8' ||
    U&'\AABE-\AABF\AAC1\AAEB-\AAEF\AAF5-\AAF6\ABE3-\ABEA\ABEC-\ABED\FB1E\FE00-\FE0F\FE20-\FE2F' ||
    U&'\+0101FD\+0102E0\+010376-\+01037A\+010A01-\+010A03\+010A05-\+010A06\+010A0C-\+010A0F' ||
    U&'\+010A38-\+010A3A\+010A3F\+010AE5-\+010AE6\+010D24-\+010D27\+010D69-\+010D6D' ||
    U&'\+010EAB-\+010EAC\+010EFA-\+010EFF\+010F46-\+010F50\+010F82-\+010F85\+011000-\+011002' ||
    U&'\+011038-\+011046\+011070\+011073-\+011074\+01107F-\+011082\+0110B0-\+0110BA\+0110C2' ||
    U&'\+011100-\+011102\+011127-\+011134\+011145-\+011146\+011173\+011180-\+011182' ||
    U&'\+0111B3-\+0111C0\+0111C9-\+0111CC\+0111CE-\+0111CF\+01122C-\+011237\+01123E\+011241' ||
    U&'\+0112DF-\+0112EA\+011300-\+011303\+01133B-\+01133C\+01133E-\+011344\+011347-\+011348' ||
    U&'\+01134B-\+01134D\+011357\+011362-\+011363\+011366-\+01136C\+011370-\+011374' ||
    U&'\+0113B8-\+0113C0\+0113C2\+0113C5\+0113C7-\+0113CA\+0113CC-\+0113D0\+0113D2' ||
    U&'\+0113E1-\+0113E2\+011435-\+011446\+01145E\+0114B0-\+0114C3\+0115AF-\+0115B5' ||
    U&'\+0115B8-\+0115C0\+0115DC-\+0115DD\+011630-\+011640\+0116AB-\+0116B7\+01171D-\+01172B' ||
    U&'\+01182C-\+01183A\+011930-\+011935\+011937-\+011938\+01193B-\+01193E\+011940' ||
    U&'\+011942-\+011943\+0119D1-\+0119D7\+0119DA-\+0119E0\+0119E4\+011A01-\+011A0A' ||
    U&'\+011A33-\+011A39\+011A3B-\+011A3E\+011A47\+011A51-\+011A5B\+011A8A-\+011A99' ||
    U&'\+011B60-\+011B67\+011C2F-\+011C36\+011C38-\+011C3F\+011C92-\+011CA7\+011CA9-\+011CB6' ||
    U&'\+011D31-\+011D36\+011D3A\+011D3C-\+011D3D\+011D3F-\+011D45\+011D47\+011D8A-\+011D8E' ||
    U&'\+011D90-\+011D91\+011D93-\+011D97\+011EF3-\+011EF6\+011F00-\+011F01\+011F03' ||
    U&'\+011F34-\+011F3A\+011F3E-\+011F42\+011F5A\+013440\+013447-\+013455\+01611E-\+01612F' ||
    U&'\+016AF0-\+016AF4\+016B30-\+016B36\+016F4F\+016F51-\+016F87\+016F8F-\+016F92\+016FE4' ||
    U&'\+016FF0-\+016FF1\+01BC9D-\+01BC9E\+01CF00-\+01CF2D\+01CF30-\+01CF46\+01D165-\+01D169' ||
    U&'\+01D16D-\+01D172\+01D17B-\+01D182\+01D185-\+01D18B\+01D1AA-\+01D1AD\+01D242-\+01D244' ||
    U&'\+01DA00-\+01DA36\+01DA3B-\+01DA6C\+01DA75\+01DA84\+01DA9B-\+01DA9F\+01DAA1-\+01DAAF' ||
    U&'\+01E000-\+01E006\+01E008-\+01E018\+01E01B-\+01E021\+01E023-\+01E024\+01E026-\+01E02A' ||
    U&'\+01E08F\+01E130-\+01E136\+01E2AE\+01E2EC-\+01E2EF\+01E4EC-\+01E4EF\+01E5EE-\+01E5EF' ||
    U&'\+01E6E3\+01E6E6\+01E6EE-\+01E6EF\+01E6F5\+01E8D0-\+01E8D6\+01E944-\+01E94A' ||
    U&'\+0E0100-\+0E01EF]'
    || '{' || (most + 1)::text || '}'
  )
$$;

comment on function app_private.has_more_marks_in_a_row(text, integer) is
  'Whether more than `most` combining marks follow one another in a text (supabase/functions/_shared/core/letters-and-marks.ts, combiningMarkRanges).';

revoke all on function app_private.trim_booking_text(text) from public;
revoke all on function app_private.has_hidden_character(text) from public;
revoke all on function app_private.has_letter(text) from public;
revoke all on function app_private.has_more_marks_in_a_row(text, integer) from public;
grant execute on function app_private.trim_booking_text(text) to anon, authenticated, service_role;
grant execute on function app_private.has_hidden_character(text) to anon, authenticated, service_role;
grant execute on function app_private.has_letter(text) to anon, authenticated, service_role;
grant execute on function app_private.has_more_marks_in_a_row(text, integer) to anon, authenticated, service_role;

create table public.bookings (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  full_name text not null
    constraint bookings_full_name_check check (
      full_name = app_private.trim_booking_text(full_name)
      and char_length(full_name) between 1 and 100
      and not app_private.has_hidden_character(full_name)
      and app_private.has_letter(full_name)
      and not app_private.has_more_marks_in_a_row(full_name, 4)
    ),
  phone text not null
    constraint bookings_phone_check check (
      phone = app_private.trim_booking_text(phone)
      and char_length(phone) between 10 and 30
      and phone ~ '^[0-9 +()-]+$'
      and char_length(regexp_replace(phone, '[^0-9]', '', 'g')) >= 7
    ),
  email text not null
    constraint bookings_email_check check (
      email = app_private.trim_booking_text(email)
      and char_length(email) between 1 and 254
      and not app_private.has_hidden_character(email)
      and email ~ U&'^[^\0009-\000D\0020\00A0\1680\2000-\200A\2028\2029\202F\205F\3000\FEFF@]+@[^\0009-\000D\0020\00A0\1680\2000-\200A\2028\2029\202F\205F\3000\FEFF@]+[.][^\0009-\000D\0020\00A0\1680\2000-\200A\2028\2029\202F\205F\3000\FEFF@]+$'
    ),
  instagram text
    constraint bookings_instagram_check check (
      instagram is null or (
        instagram = app_private.trim_booking_text(instagram)
        and char_length(instagram) between 1 and 60
        and not app_private.has_hidden_character(instagram)
      )
    ),
  -- The honeypot: the form has a field people never see or fill. Never stored:
  -- app_private.screen_booking empties it or drops the request.
  website text
);

comment on table public.bookings is
  'Booking requests from the public site; the practice replies within 24 hours. Anonymous callers may insert, never read.';

create index bookings_created_at_idx on public.bookings (created_at desc);
create index bookings_email_created_at_idx on public.bookings (lower(email), created_at desc);

alter table public.bookings enable row level security;

-- Anonymous visitors may insert a request and do nothing else. The columns are
-- named so that created_at always comes from the database clock.
revoke all on public.bookings from anon, authenticated;
grant usage on schema public to anon, authenticated, service_role;
grant insert (id, full_name, phone, email, instagram, website) on public.bookings to anon;
grant all on public.bookings to service_role;

create policy "Visitors can send a booking request"
  on public.bookings
  for insert
  to anon
  with check (true);

-- The Instagram field stored as a user name, whatever way it was typed.
--
-- Visitors type `@amina.k`, `Amina.K` or paste their profile's address from
-- the app (`https://www.instagram.com/amina.k/?igsh=…`). The practice needs
-- the user name, once, to open the profile and a chat: so a profile's address
-- is reduced to its user name, one leading `@` is dropped, and a user name
-- (letters, digits, `.` and `_`, at most 30) is lowered, Instagram's names
-- being case-insensitive. Anything else is kept as typed. The trigger below
-- applies it to every insert, hosted Supabase's included, before the checks
-- (so the length limit counts the user name, not the address).

create function app_private.instagram_handle(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select app_private.trim_booking_text(
    case when handle ~ '^[A-Za-z0-9._]{1,30}$' then lower(handle) else handle end
  )
  from (
    select case when char_length(profile) > 1 and left(profile, 1) = '@'
             then substr(profile, 2) else profile end as handle
    from (
      -- In SQL's regular expressions `.` matches line breaks too, as `[\s\S]` does in core.
      select coalesce(
        (regexp_match(
          value,
          '^(?:https?://)?(?:www\.|m\.)?instagram\.com/([^/?#]+)/?(?:[?#].*)?$',
          'i'
        ))[1],
        value
      ) as profile
    ) as address
  ) as named
$$;

comment on function app_private.instagram_handle(text) is
  'The Instagram field as stored: a profile address reduced to its user name, no leading @, a user name in lowercase (supabase/functions/_shared/core/booking-rules.ts, normaliseInstagram).';

revoke all on function app_private.instagram_handle(text) from public, anon, authenticated, service_role;

create function app_private.trim_booking()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.full_name := app_private.trim_booking_text(new.full_name);
  new.phone := app_private.trim_booking_text(new.phone);
  new.email := app_private.trim_booking_text(new.email);
  -- An optional field left empty is stored as null.
  new.instagram := nullif(
    app_private.instagram_handle(app_private.trim_booking_text(new.instagram)), '');
  return new;
end;
$$;

comment on function app_private.trim_booking() is
  'Trims every field of a new booking request and reduces the Instagram field to a user name, as the form does, before the checks; runs as its owner so that anon needs no privilege on app_private.';

revoke all on function app_private.trim_booking() from public, anon, authenticated, service_role;

-- Named to run before bookings_screen (triggers of one event run in name order).
create trigger bookings_normalize
  before insert on public.bookings
  for each row execute function app_private.trim_booking();

-- The honeypot. A request that fills it is answered as if stored (201) and
-- stored nowhere.
create function app_private.screen_booking()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A bot filled the field people cannot see: answer as if stored, store nothing.
  if nullif(btrim(new.website), '') is not null then
    return null;
  end if;
  new.website := null;
  return new;
end;
$$;

comment on function app_private.screen_booking() is
  'Drops honeypot requests (answered as stored, stored nowhere).';

revoke all on function app_private.screen_booking() from public, anon, authenticated, service_role;

create trigger bookings_screen
  before insert on public.bookings
  for each row execute function app_private.screen_booking();
