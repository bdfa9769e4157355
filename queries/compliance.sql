-- title: Compliance: required products per person
-- description: One row per person and required product, with where the person stands, the most
--   urgent first: overdue rows by days overdue (most first), then every other row, each by last
--   name and first name (alphabetical: case, accents and surrounding white space ignored). Names and e-mail come from the roster ("lms-export roster import FILE");
--   they are empty for people the roster does not list.
--   People: with group_id, the people linked to that group or any of its subgroups; without it,
--   everyone seen in user_grp, product_access or take; either way without those the roster marks
--   as gone (user_status one of excluded_statuses: inactive, suspended, leaver and the like by
--   default). People are the same whatever today is: the portal gives no day a person joined
--   (links have no dates), so with product_ids a past day counts someone whose records all came
--   later as required and not started, though not overdue (no access record, no due date).
--   Required products: with product_ids,
--   every listed product for every person (whether or not they have an access record); without
--   it, each product the person holds an access record for.
--   Everything is as it stood on the day today, so that a past day gives that day's figures (as
--   the compliance-trend query's row for that day): access records granted after it are left out
--   (a record without a granted date counts), and so are takes begun after it; a completion
--   after it has not happened yet (the take is in progress). What the portal gives only as it is
--   now has no dates in the data, so the current values are used whatever the day: access
--   statuses (active, inactive, expired) and expiry days, group membership, pass marks
--   (product_min_score) and the roster (names, managers).
--   A take passes when it is completed (take_completed_date present), the portal does not call
--   it failed (take_status "failed", case and surrounding white space ignored: such a take never
--   passes, whatever the pass mark), and the product has no pass mark (product_min_score empty
--   or 0, or the product is gone from the portal), or the take has no score, or take_score is at
--   least product_min_score. product_allow_notation is not used: the interface does not say what
--   it means.
--   status, the first that applies: "completed" (a passing take); "failed" (completed takes,
--   none passing); "access expired" (access_state is expired); "in progress" (a take without a
--   completion date); "not started".
--   access_state: "active" if an access record is in status active and not past its expiry day;
--   else "expired" if one is in status expired or past its expiry day; else "inactive" if there
--   is a record; else "none".
--   access_expires: the day the access ends: of the records in status active, the latest
--   expiry, empty when one of them has none (that access never expires); with no record in
--   status active, the latest expiry of the records, empty when none has one. While the access
--   is active it is the day expires_in_days counts to. A later expiry of an inactive or expired
--   record does not count while a record is in status active: that access is not the one held.
--   due_date: the earlier of (first access granted day + due_days) and access_expires; either
--   one alone when the other is missing; empty without an access record. So a due date never
--   falls after the access_expires of its row.
--   days_overdue: today - due_date when the status is not "completed" and due_date is before
--   today; 0 when completed or not yet due; empty when there is no due date.
--   expires_in_days: days from today to the expiry day of the active access (empty when the
--   access is not active or never expires); expiring: true when that is from 0 to expiring_days.
--   certificate: an access record has product_access_certificate "1".
--   completed_at: the first passing completion; best_score: the best score of a completed take;
--   last_activity: the latest take start or completion. Days are UTC calendar days.
--   manager_email: the person's managers. A person's manager is the address in the roster
--   column named by manager_column (manager_email by default), when the person has one there
--   (white space around it taken off; a cell of white space alone, a tab too, holds none; a
--   cell without an @ that is a roster person's user_id or user_organisation_identifier, as an
--   HR sheet's manager id column holds, stands for that person's roster e-mail; a manager or
--   admin the roster marks as gone, see excluded_statuses, is none, whether the column names
--   them by id or by an address no one still there has);
--   otherwise the roster e-mails of the admins (user_grp_group_admin = 1) of the groups the
--   person is linked to directly, as in the group-managers query (an admin of a group is not
--   managed through it). Several are listed in alphabetical order, separated by ", "; with
--   by_manager, each gets a row of their own instead (one row per manager, person and required
--   product, and one row with it empty for a person without a manager), so that the report can
--   be mailed to each manager with only their people ("splitBy": "manager_email"). A roster
--   without that column, or no roster, leaves the group admins.
-- param today date = today: Reference day (UTC; everything as it stood that day but what the portal gives only as it is now: access statuses and expiry days, group membership, pass marks and the roster).
-- param product_ids int_list = []: Required products (empty = each product a person has access to).
-- param group_id int = null: Only people of this group and its subgroups (empty = everyone).
-- param due_days int = 30 (0..36500): Days after access is granted by which a product must be completed.
-- param excluded_statuses string_list = inactive,suspended,disabled,deactivated,deleted,archived,terminated,leaver,left: People whose roster user_status is one of these are left out, as no longer to be followed up (case and surrounding white space ignored; empty = no one is left out).
-- param expiring_days int = 30 (0..36500): An active access expiring within this many days is flagged (the Expiring soon column of the compliance rows).
-- param manager_column string = manager_email: Roster column holding each person's manager's e-mail (people without one: the admins of their groups).
-- param by_manager bool = false: One row per manager of each person, for a mail split per manager (false: the managers in one cell).
-- label manager_email: Manager
-- label days_overdue: Days overdue
-- label due_date: Due date
-- label access_state: Access
-- label access_granted: Access granted
-- label access_expires: Access expires
-- label expires_in_days: Expires in (days)
-- label expiring: Expiring soon
-- label completed_at: Completed on
WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
  SELECT grp_id, grp_id FROM grp
  UNION -- UNION, not UNION ALL: a cycle in grp_parent_id ends instead of looping
  SELECT tree.ancestor_id, grp.grp_id
  FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
),
scope_users AS (
  SELECT user_grp_user_id AS user_id
  FROM tree JOIN user_grp ON user_grp.user_grp_grp_id = tree.descendant_id
  WHERE $group_id IS NOT NULL AND tree.ancestor_id = $group_id
  UNION
  SELECT user_id FROM (
    SELECT user_grp_user_id AS user_id FROM user_grp
    UNION SELECT product_access_user_id FROM product_access
    UNION SELECT take_user_id FROM take
  ) AS everyone
  WHERE $group_id IS NULL
),
-- People the roster marks as gone (user_status one of excluded_statuses) are left out of the
-- required products: they are no one's to follow up. People without a roster row or status stay.
left_people AS (
  SELECT user_id FROM "user"
  WHERE lower(regexp_replace(user_status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))
        IN (SELECT lower(regexp_replace(status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))
            FROM unnest($excluded_statuses) AS s(status))
),
followed_users AS (
  SELECT user_id FROM scope_users
  WHERE NOT EXISTS (SELECT 1 FROM left_people WHERE left_people.user_id = scope_users.user_id)
),
-- Everything is as it stood on today, as compliance-trend counts each week: an access record
-- granted after today is not there yet (one without that date always is); a take counts from its
-- earliest date and its completion from its day. Statuses have no dates: today's are used.
access_records AS (
  SELECT product_access.*,
         product_access_status = 'active'
           AND (product_access_expired_date IS NULL
                OR CAST(product_access_expired_date AS DATE) >= $today) AS is_active
  FROM product_access
  WHERE product_access_created_date IS NULL
     OR CAST(product_access_created_date AS DATE) <= $today
),
dated_takes AS (
  SELECT take_user_id, take_product_id, take_score, take_status,
         CASE WHEN CAST(take_started_date AS DATE) <= $today THEN take_started_date END
           AS take_started_date,
         CASE WHEN CAST(take_completed_date AS DATE) <= $today THEN take_completed_date END
           AS take_completed_date
  FROM take
  WHERE coalesce(CAST(least(take_started_date, take_completed_date, take_created_date) AS DATE)
                   <= $today, true)
),
pairs AS (
  SELECT followed_users.user_id, required.product_id
  FROM followed_users CROSS JOIN (SELECT DISTINCT unnest($product_ids) AS product_id) AS required
  WHERE len($product_ids) > 0 AND followed_users.user_id IS NOT NULL
  UNION
  SELECT product_access_user_id, product_access_product_id
  FROM access_records JOIN followed_users ON followed_users.user_id = product_access_user_id
  WHERE len($product_ids) = 0 AND product_access_product_id IS NOT NULL
),
access AS (
  SELECT product_access_user_id AS user_id, product_access_product_id AS product_id,
         coalesce(bool_or(is_active), false) AS has_active,
         -- The day the access ends, for access_expires and the due date alike: of several records,
         -- those in status active decide (an earlier trial's expiry, or a later one of a record
         -- since deactivated, is not the access held), and one without an expiry keeps it open.
         CASE WHEN coalesce(bool_or(product_access_status = 'active'
                                    AND product_access_expired_date IS NULL), false) THEN NULL
              WHEN coalesce(bool_or(product_access_status = 'active'), false)
              THEN max(product_access_expired_date) FILTER (WHERE product_access_status = 'active')
              ELSE max(product_access_expired_date) END AS access_expires,
         coalesce(bool_or(product_access_status = 'expired'
                          OR CAST(product_access_expired_date AS DATE) < $today), false)
           AS has_expired,
         -- An active record without an expiry day keeps the access open for good.
         CASE WHEN NOT coalesce(bool_or(is_active AND product_access_expired_date IS NULL), false)
              THEN max(product_access_expired_date) FILTER (WHERE is_active)
              END AS active_until,
         coalesce(bool_or(trim(product_access_certificate) = '1'), false) AS certificate,
         min(product_access_created_date) AS access_granted
  FROM access_records
  GROUP BY product_access_user_id, product_access_product_id
),
takes AS (
  SELECT take_user_id AS user_id, take_product_id AS product_id,
         count(*) AS attempts,
         count(take_completed_date) AS completed_takes,
         -- The portal's own verdict comes first: a take it calls failed does not pass even when
         -- the pass mark is unknown (empty, or the product gone). A portal that never says
         -- "failed" (the interface shows only in_progress) is judged by the score alone.
         min(take_completed_date) FILTER (
           WHERE take_completed_date IS NOT NULL
             AND lower(regexp_replace(take_status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g')) IS DISTINCT FROM 'failed'
             AND (coalesce(product.product_min_score, 0) = 0 OR take_score IS NULL
                  OR take_score >= product.product_min_score)) AS passed_at,
         max(take_score) FILTER (WHERE take_completed_date IS NOT NULL) AS best_score,
         max(greatest(take_started_date, take_completed_date)) AS last_activity
  FROM dated_takes AS take
  LEFT JOIN product ON product.product_id = take.take_product_id
  GROUP BY take_user_id, take_product_id
),
-- The address of a roster column is read by name from the row as JSON, so that a roster without
-- that column (or no roster) reads as "no address" instead of failing. Materialized, so that each
-- row is turned into JSON once (the filters below would otherwise each do it again).
-- An address is trimmed of the white space the mail split trims (String.prototype.trim(): a tab,
-- a line break, a byte-order mark, Unicode's spaces), with the regular expression of
-- src/text/white-space.ts: DuckDB's trim() leaves a tab, and a cell of a tab alone was a manager
-- that is no address, where the split saw none. test/report/queries-managers.test.ts keeps the
-- two the same. An empty manager_column names no column: read as the whole row otherwise, every
-- person's "manager" would be their roster row as text.
roster_manager_cells AS MATERIALIZED (
  SELECT u.user_id,
         nullif(regexp_replace(to_json(u) ->> nullif($manager_column, ''), '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'), '') AS cell
  FROM "user" AS u
),
-- A cell without an @ that names a person of the roster, by user_id or by
-- user_organisation_identifier (HR sheets give a manager's id or employee number, and the run
-- suggests such a column when the roster has no address column), stands for that person's
-- address; "1001.0", as a sheet writes a number column with gaps, is 1001. A column holds one
-- kind of id: the kind more of its cells name (user_id on a tie), so that an employee number that
-- is also another person's user_id is read as the employee number it is. A cell that names no
-- one, or someone without an address, stays as it is: the mail split refuses it as no address
-- rather than mailing the wrong person. Hash joins on the id as text: a condition with OR, or a
-- second condition on the cell beside the equality in a LEFT JOIN's ON, made DuckDB compare
-- every cell with every person (3 minutes instead of 4 s at 400,000 people), so a cell with an @
-- has no id, which matches nothing.
manager_ids AS MATERIALIZED (
  SELECT user_id, cell,
         CASE WHEN NOT contains(cell, '@') THEN regexp_replace(cell, '^([0-9]+)\.0+$', '\1') END
           AS id
  FROM roster_manager_cells
),
person_ids AS (
  SELECT CAST(user_id AS VARCHAR) AS id, 0 AS kind, user_id, email FROM "user"
  UNION ALL
  SELECT regexp_replace(user_organisation_identifier, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'), 1, user_id, email
  FROM "user" WHERE user_organisation_identifier IS NOT NULL
),
id_kind AS (
  SELECT CASE WHEN count(*) FILTER (WHERE kind = 1) > count(*) FILTER (WHERE kind = 0) THEN 1
              ELSE 0 END AS kind
  FROM manager_ids JOIN person_ids ON person_ids.id = manager_ids.id
),
person_addresses AS (
  SELECT id, min_by(nullif(regexp_replace(email, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'), ''), user_id) AS email,
         min(user_id) AS user_id
  FROM person_ids WHERE kind = (SELECT kind FROM id_kind) GROUP BY id
),
-- Each person's address as written: trimmed as the split trims it (see roster_manager_cells).
roster_addresses AS (
  SELECT user_id, nullif(regexp_replace(email, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'), '') AS written FROM "user"
),
-- Every address of the roster and every manager cell, with its key as the mail split keys it
-- (normaliseAddress in src/mail/address.ts: NFC, lower case, NFC), so that "ü" written as "u" and
-- a combining diaeresis, as a roster typed on a Mac may give it, is the mailbox the split sees.
-- DuckDB's lower() differs from toLowerCase() on two letters, made as the split makes them first:
-- "İ" is "i" and a combining dot above, not "i"; a "Σ" ending a word is "ς", not "σ" (Unicode's
-- Final_Sigma: after a cased letter, not before one, case-ignorable characters between not
-- counting; the two classes are Unicode's Cased and Case_Ignorable spelled in categories and the
-- letters outside them). test/report/address-key-code-points.test.ts checks every code point
-- against toLowerCase(). Not done here: a domain in its ASCII form (xn--) is not turned into its
-- Unicode form, as the split does.
address_keys AS (
  SELECT written,
         nfc_normalize(lower(CASE WHEN contains(composed, 'Σ')
           THEN regexp_replace(composed, '([\p{Lu}\p{Ll}\p{Lt}\x{AA}\x{BA}\x{2160}-\x{217F}\x{24B6}-\x{24E9}\x{1F130}-\x{1F149}\x{1F150}-\x{1F169}\x{1F170}-\x{1F189}][\p{Mn}\p{Me}\p{Cf}\p{Lm}\p{Sk}''.:\x{B7}\x{387}\x{55F}\x{5F4}\x{2018}\x{2019}\x{2024}\x{2027}\x{FE13}\x{FE52}\x{FE55}\x{FF07}\x{FF0E}\x{FF1A}\x{345}\x{10FC}]*)Σ([\p{Mn}\p{Me}\p{Cf}\p{Lm}\p{Sk}''.:\x{B7}\x{387}\x{55F}\x{5F4}\x{2018}\x{2019}\x{2024}\x{2027}\x{FE13}\x{FE52}\x{FE55}\x{FF07}\x{FF0E}\x{FF1A}\x{345}\x{10FC}]*(?:[^\p{Lu}\p{Ll}\p{Lt}\x{AA}\x{BA}\x{2160}-\x{217F}\x{24B6}-\x{24E9}\x{1F130}-\x{1F149}\x{1F150}-\x{1F169}\x{1F170}-\x{1F189}\p{Mn}\p{Me}\p{Cf}\p{Lm}\p{Sk}''.:\x{B7}\x{387}\x{55F}\x{5F4}\x{2018}\x{2019}\x{2024}\x{2027}\x{FE13}\x{FE52}\x{FE55}\x{FF07}\x{FF0E}\x{FF1A}\x{345}\x{10FC}]|$))', '\1ς\2', 'g')
           ELSE composed END)) AS address
  FROM (
    SELECT written, replace(nfc_normalize(written), 'İ', 'i' || chr(775)) AS composed
    FROM (SELECT written FROM roster_addresses UNION SELECT cell FROM manager_ids)
    WHERE written IS NOT NULL
  )
),
-- The addresses of people the roster marks as gone that no one else of the roster has: a manager
-- column that writes such an address names someone gone, as an id would. An address shared with
-- someone still there (a team mailbox, a reused address) stays a manager.
gone_addresses AS (
  SELECT key.address FROM roster_addresses AS gone JOIN address_keys AS key USING (written)
  WHERE EXISTS (SELECT 1 FROM left_people WHERE left_people.user_id = gone.user_id)
  EXCEPT
  SELECT key.address FROM roster_addresses AS staying JOIN address_keys AS key USING (written)
  WHERE NOT EXISTS (SELECT 1 FROM left_people WHERE left_people.user_id = staying.user_id)
),
-- A manager the roster marks as gone (left_people), named by id or by address, is none: the
-- person's group admins stand in, rather than a leaver's mailbox getting their rows.
-- An address is lower-cased here only when DuckDB's lower() gives what the mail split's
-- toLowerCase() gives: it turns "İ" into "i", not "i" and a combining dot, and a word's last "Σ"
-- into "σ", not "ς", so "İlker@example.com" became another mailbox, ilker@example.com, and
-- "ΝΊΚΟΣ@example.gr" a share apart from "νίκος@example.gr". An address holding either letter
-- stays as written, and the split keys it (normaliseAddress in src/mail/address.ts). A cell
-- without an @ (a name, an id that names no one or someone without an address) stays as written
-- too, so that the split's warning and the copy of the rows without a manager show the roster's
-- own text, which the person fixing the roster searches for.
roster_managers AS MATERIALIZED (
  SELECT user_id,
         CASE WHEN NOT is_gone
              THEN CASE WHEN contains(written, '@') AND NOT regexp_matches(written, '[İΣ]')
                        THEN lower(written) ELSE written END END
           AS manager_email,
         written
  FROM (
    SELECT cells.user_id, coalesce(named.email, cells.cell) AS written,
           gone.user_id IS NOT NULL OR gone_address.address IS NOT NULL AS is_gone
    FROM manager_ids AS cells
    LEFT JOIN person_addresses AS named ON named.id = cells.id
    LEFT JOIN left_people AS gone ON gone.user_id = named.user_id
    LEFT JOIN address_keys AS cell_key ON cell_key.written = cells.cell
    LEFT JOIN gone_addresses AS gone_address ON gone_address.address = cell_key.address
  )
),
admin_managers AS (
  SELECT user_id,
         -- Lower-cased as roster_managers does it: an address with "İ" or "Σ" stays as written.
         CASE WHEN regexp_matches(email, '[İΣ]') THEN email ELSE lower(email) END AS manager_email,
         email AS written
  FROM (
    SELECT member.user_grp_user_id AS user_id, admin_user.written AS email
    FROM user_grp AS member
    JOIN user_grp AS admin ON admin.user_grp_grp_id = member.user_grp_grp_id
     AND admin.user_grp_group_admin = 1 AND admin.user_grp_user_id <> member.user_grp_user_id
    JOIN roster_addresses AS admin_user ON admin_user.user_id = admin.user_grp_user_id
    WHERE NOT EXISTS (SELECT 1 FROM left_people WHERE left_people.user_id = admin_user.user_id)
      AND NOT EXISTS (
      SELECT 1 FROM user_grp AS own
      WHERE own.user_grp_grp_id = member.user_grp_grp_id
        AND own.user_grp_user_id = member.user_grp_user_id AND own.user_grp_group_admin = 1
    )
  )
),
-- One row per person and mailbox: two spellings the split takes for one address, which the
-- lower-casing above leaves apart ("İlker@…" and "i" with a combining dot, "ΝΊΚΟΣ@…" and
-- "νίκος@…", as two group admins may be written), are one manager, shown in the first spelling
-- in byte order, so that the person's rows reach that manager's share once.
managers AS MATERIALIZED (
  SELECT user_id, min(manager_email) AS manager_email
  FROM (
    SELECT user_id, manager_email, written FROM roster_managers WHERE manager_email IS NOT NULL
    UNION ALL
    SELECT user_id, manager_email, written FROM admin_managers
    WHERE manager_email IS NOT NULL AND user_id NOT IN (
      SELECT user_id FROM roster_managers WHERE manager_email IS NOT NULL AND user_id IS NOT NULL
    )
  ) AS named
  LEFT JOIN address_keys AS mailbox USING (written)
  GROUP BY user_id, coalesce(mailbox.address, manager_email)
),
-- A sorted list joined, not string_agg(... ORDER BY ...): the same text, at a third of the cost.
person_managers AS (
  SELECT user_id, manager_email FROM managers WHERE $by_manager
  UNION ALL
  SELECT user_id, array_to_string(list_sort(list(manager_email)), ', ')
  FROM managers WHERE NOT $by_manager
  GROUP BY user_id
),
-- Names sort as people read them: the white space around them taken off (as the mail split
-- takes it off), case and accents ignored, in ICU's "en" order (the Unicode root order, which puts
-- "Łukasz" among the L's and "Ørsted" among the O's, where strip_accents leaves them after "z");
-- the name as written breaks ties, so the order stays total. The few group names are ranked once
-- and each person's list sorts ranks: string_agg(DISTINCT ... ORDER BY ...) sorted every person's
-- names apart, which at 400,000 people took most of the query's time and memory.
group_ranks AS (
  SELECT grp_name,
         row_number() OVER (ORDER BY
           lower(strip_accents(regexp_replace(grp_name, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))) COLLATE en, grp_name) AS rank
  FROM (SELECT DISTINCT grp_name FROM grp WHERE grp_name IS NOT NULL)
),
group_names AS (
  SELECT list(grp_name ORDER BY rank) AS names FROM group_ranks
),
user_group_ranks AS (
  SELECT user_grp_user_id AS user_id, list_sort(list_distinct(list(group_ranks.rank))) AS ranks
  FROM user_grp
  JOIN grp ON grp.grp_id = user_grp.user_grp_grp_id
  JOIN group_ranks ON group_ranks.grp_name = grp.grp_name
  GROUP BY user_grp_user_id
),
user_groups AS (
  SELECT user_id, array_to_string(list_transform(ranks, r -> names[r]), ', ') AS groups
  FROM user_group_ranks CROSS JOIN group_names
),
people AS (
  SELECT user_id, firstname, lastname, email,
         lower(strip_accents(nullif(regexp_replace(lastname, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'), ''))) AS last_key,
         lower(strip_accents(nullif(regexp_replace(firstname, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'), ''))) AS first_key
  FROM "user"
),
states AS (
  SELECT pairs.user_id, pairs.product_id,
         CASE WHEN access.has_active THEN 'active'
              WHEN access.has_expired THEN 'expired'
              WHEN access.user_id IS NOT NULL THEN 'inactive'
              ELSE 'none' END AS access_state,
         access.access_granted,
         access.access_expires,
         -- Capped by the expiry shown, so that a row is never due after its access ends.
         least(CAST(access.access_granted AS DATE) + CAST($due_days AS INTEGER),
               CAST(access.access_expires AS DATE)) AS due_date,
         CAST(access.active_until AS DATE) - $today AS expires_in_days,
         coalesce(access.certificate, false) AS certificate,
         coalesce(takes.attempts, 0) AS attempts,
         coalesce(takes.completed_takes, 0) AS completed_takes,
         takes.passed_at, takes.best_score, takes.last_activity
  FROM pairs
  LEFT JOIN access ON access.user_id = pairs.user_id AND access.product_id = pairs.product_id
  LEFT JOIN takes ON takes.user_id = pairs.user_id AND takes.product_id = pairs.product_id
),
rows AS (
  SELECT states.*,
         CASE WHEN states.passed_at IS NOT NULL THEN 'completed'
              WHEN states.completed_takes > 0 THEN 'failed'
              WHEN states.access_state = 'expired' THEN 'access expired'
              WHEN states.attempts > 0 THEN 'in progress'
              ELSE 'not started' END AS status,
         CASE WHEN states.due_date IS NULL THEN NULL
              WHEN states.passed_at IS NOT NULL OR states.due_date >= $today THEN 0
              ELSE $today - states.due_date END AS days_overdue
  FROM states
)
SELECT
  rows.user_id,
  people.firstname,
  people.lastname,
  people.email,
  user_groups.groups,
  rows.product_id,
  coalesce(
    product.shown_title,
    CASE WHEN product.product_id IS NULL THEN '(product ' || rows.product_id || ', no longer in the portal)' END
  ) AS product_title,
  rows.status,
  rows.days_overdue,
  rows.due_date,
  rows.access_state,
  rows.access_granted,
  rows.access_expires,
  rows.expires_in_days,
  coalesce(rows.expires_in_days BETWEEN 0 AND $expiring_days, false) AS expiring,
  rows.certificate,
  rows.attempts,
  rows.best_score,
  rows.passed_at AS completed_at,
  rows.last_activity,
  person_managers.manager_email
FROM rows
LEFT JOIN people ON people.user_id = rows.user_id
LEFT JOIN user_groups ON user_groups.user_id = rows.user_id
LEFT JOIN person_managers ON person_managers.user_id = rows.user_id
LEFT JOIN (
  -- Products that share a title have their id added to it ("Fire safety (product 2)"): a chart
  -- would draw them as one bar or one heatmap cell, and a reader could not tell the rows apart.
  -- Titles are compared without the white space around them ("Safety" and "Safety " look alike
  -- on a bar); a blank title gives way to the name, and one with neither is named by its id, as
  -- two such products would be one bar, their figures added up.
  SELECT * EXCLUDE (label, label_key),
         CASE WHEN label_key = '' THEN '(product ' || product_id || ')'
              WHEN count(*) OVER (PARTITION BY label_key) > 1 THEN label || ' (product ' || product_id || ')'
              ELSE label END AS shown_title
  FROM (SELECT * EXCLUDE (title_key, name_key),
               CASE WHEN title_key <> '' THEN product_i18n_title ELSE product_i18n_name END AS label,
               coalesce(CASE WHEN title_key <> '' THEN title_key ELSE name_key END, '') AS label_key
        FROM (SELECT *,
                     regexp_replace(product_i18n_title, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g') AS title_key,
                     regexp_replace(product_i18n_name, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g') AS name_key
              FROM product))
) AS product ON product.product_id = rows.product_id
ORDER BY coalesce(rows.days_overdue, 0) DESC,
         people.last_key COLLATE en NULLS LAST, people.first_key COLLATE en NULLS LAST,
         people.lastname NULLS LAST, people.firstname NULLS LAST, rows.user_id, rows.product_id,
         person_managers.manager_email NULLS LAST
