-- title: Compliance summary: overall, per group and per roster column
-- description: Where the required products stand, in totals: one row for everyone in scope
--   (scope "overall"; named "(all users)", or with group_id "(group NAME and its subgroups)";
--   always there, with zeros and empty rates when no one has a required product, as on a day
--   before any access was granted),
--   one per group (scope "group"; a group counts the people of all its subgroups, each once;
--   groups that share a name have their id added to it, "Team (group 12)"), and one per value
--   of the roster column named by by_column (scope is that column's name; people without a
--   value, or missing from the roster, count under "(not set)"; no such rows when no one in the
--   roster has a value in that column, as when the roster has no such column, or a portal's
--   roster lacks one another portal's has). Values that differ only in case, in the white
--   space around them, in runs of white space inside them or in their Unicode form (an "é" as
--   one character or as "e" and an accent, as macOS writes it) are one value ("Sales",
--   "sales", " Sales "; "Ventes &  Développement" and "Ventes & Développement"), named as the
--   roster spells it most often, in Unicode's composed form (NFC) with one space for each run
--   of white space (a tie: the first in alphabetical order, lower case first).
--   People and required products are those of the compliance query with the same parameters,
--   and so are the rules: completed = a passing take (a take whose take_status is "failed" never
--   passes, whatever the pass mark); failed = completed takes, none passing;
--   overdue = not completed and the due date is before today. As there, everything is as it
--   stood on the day today (access granted, takes begun and completions after it do not count
--   yet), so the overall row of a past day is the compliance-trend row for that day; access
--   statuses and expiry days, group membership, pass marks and the roster (by_column's values)
--   are the current ones, as the portal gives them only as they are now.
--   Rows of a scope are in alphabetical order of their names (case, accents and surrounding
--   white space ignored), "(not set)" last.
--   people: people with at least one required product; required: person-product pairs;
--   completion_rate = completed / required; overdue_rate = overdue / required (empty when
--   required is 0).
-- param today date = today: Reference day (UTC; everything as it stood that day but what the portal gives only as it is now: access statuses and expiry days, group membership, pass marks and the roster).
-- param product_ids int_list = []: Required products (empty = each product a person has access to).
-- param group_id int = null: Only people of this group and its subgroups (empty = everyone).
-- param due_days int = 30 (0..36500): Days after access is granted by which a product must be completed.
-- param excluded_statuses string_list = inactive,suspended,disabled,deactivated,deleted,archived,terminated,leaver,left: People whose roster user_status is one of these are left out, as no longer to be followed up (case and surrounding white space ignored; empty = no one is left out).
-- param by_column string = department: Roster column to total by (e.g. department, site).
-- label people: People
-- label required: Required items
-- label completion_rate: Completion rate
-- label overdue_rate: Overdue rate
WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
  SELECT grp_id, grp_id FROM grp
  UNION -- UNION, not UNION ALL: a cycle in grp_parent_id ends instead of looping
  SELECT tree.ancestor_id, grp.grp_id
  FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
),
-- People in scope, their required products and the pass rule are those of compliance.sql, written
-- again so that each query file stands alone; a test checks that the three queries agree.
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
-- As it stood on today, as in compliance.sql: access granted after today is not there yet, nor
-- is a take begun after it, and a completion counts from its day.
access_records AS (
  SELECT * FROM product_access
  WHERE product_access_created_date IS NULL
     OR CAST(product_access_created_date AS DATE) <= $today
),
dated_takes AS (
  SELECT take_user_id, take_product_id, take_score, take_status,
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
         -- Capped by the day the access ends, as compliance.sql's access_expires: of several
         -- records those in status active decide, and one without an expiry keeps it open.
         least(CAST(min(product_access_created_date) AS DATE) + CAST($due_days AS INTEGER),
               CAST(CASE WHEN coalesce(bool_or(product_access_status = 'active'
                                               AND product_access_expired_date IS NULL), false)
                         THEN NULL
                         WHEN coalesce(bool_or(product_access_status = 'active'), false)
                         THEN max(product_access_expired_date)
                                FILTER (WHERE product_access_status = 'active')
                         ELSE max(product_access_expired_date) END AS DATE)) AS due_date
  FROM access_records
  GROUP BY product_access_user_id, product_access_product_id
),
takes AS (
  SELECT take_user_id AS user_id, take_product_id AS product_id,
         count(take_completed_date) AS completed_takes,
         bool_or(take_completed_date IS NOT NULL
                 AND lower(regexp_replace(take_status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g')) IS DISTINCT FROM 'failed'
                 AND (coalesce(product.product_min_score, 0) = 0 OR take_score IS NULL
                      OR take_score >= product.product_min_score)) AS passed
  FROM dated_takes AS take
  LEFT JOIN product ON product.product_id = take.take_product_id
  GROUP BY take_user_id, take_product_id
),
items AS (
  SELECT pairs.user_id,
         coalesce(takes.passed, false) AS completed,
         NOT coalesce(takes.passed, false) AND coalesce(takes.completed_takes, 0) > 0 AS failed,
         NOT coalesce(takes.passed, false) AND coalesce(access.due_date < $today, false) AS overdue
  FROM pairs
  LEFT JOIN access ON access.user_id = pairs.user_id AND access.product_id = pairs.product_id
  LEFT JOIN takes ON takes.user_id = pairs.user_id AND takes.product_id = pairs.product_id
),
members AS (
  SELECT DISTINCT tree.ancestor_id AS group_id, user_grp.user_grp_user_id AS user_id
  FROM tree JOIN user_grp ON user_grp.user_grp_grp_id = tree.descendant_id
  WHERE $group_id IS NULL
     OR tree.ancestor_id IN (SELECT descendant_id FROM tree WHERE ancestor_id = $group_id)
),
-- The roster column is read by name from each row as JSON, so the SQL never changes with
-- the parameter; a column the roster lacks matches nothing. A column no one has a value in is
-- treated alike: over several portals' tables a column one portal's roster lacks is there,
-- empty, and a single "(not set)" row holding everyone would say nothing.
-- Groups that share a name have their id added to it, as in the completion and overdue queries,
-- so that their rows and chart bars are told apart.
named AS (
  -- Names are compared without the white space around them ("Team" and "Team " look alike on
  -- a bar), and a group whose name is blank is named by its id: two such groups would otherwise
  -- be one bar, their figures added up.
  SELECT grp_id,
         CASE WHEN coalesce(trimmed, '') = '' THEN '(group ' || grp_id || ')'
              WHEN count(*) OVER (PARTITION BY trimmed) > 1 THEN grp_name || ' (group ' || grp_id || ')'
              ELSE grp_name END AS group_name
  FROM (SELECT grp_id, grp_name,
               regexp_replace(grp_name, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g') AS trimmed
        FROM grp)
),
-- A value is trimmed as the mail split trims (src/text/white-space.ts): a cell of a tab alone is
-- no value, not a group of its own. Then it is put in Unicode's composed form (NFC: macOS writes
-- "é" as "e" and an accent, which renders the same but compares apart) and each run of white
-- space inside it (the same characters: "Ventes &  Développement", a tab) becomes one space, so
-- that values a reader sees as one are one. An empty by_column names no column (read as the
-- whole row, each person would be a value of their own).
roster_cells AS (
  SELECT u.user_id,
         nullif(regexp_replace(nfc_normalize(regexp_replace(to_json(u) ->> nullif($by_column, ''), '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g')), '[\s\x0B\x{FEFF}\p{Z}]+', ' ', 'g'), '') AS value
  FROM "user" AS u
),
-- HR files spell one department "Sales", "sales" and " SALES ": a value is its folded text in
-- lower case, shown as the roster spells it most often (over the whole roster, so the name does
-- not change with group_id), ties to the first in ICU's "en" order, then in code point order.
spellings AS (
  SELECT lower(value) AS value_key, value,
         row_number() OVER (PARTITION BY lower(value)
                            ORDER BY count(*) DESC, value COLLATE en, value) AS rank
  FROM roster_cells
  WHERE value IS NOT NULL
  GROUP BY value
),
roster_values AS (
  SELECT roster_cells.user_id, spellings.value
  FROM roster_cells
  JOIN spellings ON spellings.value_key = lower(roster_cells.value) AND spellings.rank = 1
),
scoped AS (
  -- The overall row says what it covers: with group_id, that group's people only.
  SELECT 1 AS part, 'overall' AS scope,
         CASE WHEN $group_id IS NULL THEN '(all users)'
              ELSE '(group ' || coalesce((SELECT group_name FROM named WHERE grp_id = $group_id),
                                         CAST($group_id AS VARCHAR))
                   || ' and its subgroups)' END AS name,
         NULL::BIGINT AS group_id, items.*
  -- From one row, so that the overall row is there (zeros) when no one is in scope, as the
  -- trend's row of that day is: a report's headline figures would otherwise be missing.
  FROM (SELECT 1) AS always LEFT JOIN items ON true
  UNION ALL
  SELECT 2, 'group', named.group_name, members.group_id, items.*
  FROM items
  JOIN members ON members.user_id = items.user_id
  JOIN named ON named.grp_id = members.group_id
  UNION ALL
  SELECT 3, $by_column, coalesce(roster_values.value, '(not set)'), NULL, items.*
  FROM items
  LEFT JOIN roster_values ON roster_values.user_id = items.user_id
  WHERE EXISTS (SELECT 1 FROM roster_values WHERE roster_values.value IS NOT NULL)
)
SELECT
  scope,
  name,
  group_id,
  count(DISTINCT user_id) AS people,
  -- count(user_id), not count(*): the overall row of no one holds one row without an item.
  count(user_id) AS required,
  count(*) FILTER (WHERE completed) AS completed,
  count(*) FILTER (WHERE failed) AS failed,
  count(*) FILTER (WHERE overdue) AS overdue,
  count(*) FILTER (WHERE completed) / nullif(count(user_id), 0) AS completion_rate,
  count(*) FILTER (WHERE overdue) / nullif(count(user_id), 0) AS overdue_rate
FROM scoped
GROUP BY part, scope, name, group_id
-- Names in alphabetical order as compliance.sql sorts people's: white space around them, case
-- and accents ignored, ICU's "en" order, the name as written breaking ties.
ORDER BY part, name = '(not set)',
         lower(strip_accents(regexp_replace(name, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))) COLLATE en, name, group_id
