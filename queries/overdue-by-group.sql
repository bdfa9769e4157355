-- title: Overdue required products by group (direct members only)
-- description: One row per group that has people linked to it directly, counting those direct
--   members only: unlike the group rows of compliance-summary, a group here leaves out the
--   people of its subgroups, and a person linked to several groups counts in each, so the rows
--   add up to more than the overall figures. For each group: the required products of its
--   direct members (person x product pairs: with product_ids, every listed product for every
--   person; without it, each product the person holds an access record for), how many are
--   completed (a completed take that passes as in the compliance query: take_status not
--   "failed", and the product's pass mark reached or none), and how many are overdue, by the rules of the compliance query (not completed, and
--   the due date, the earlier of first access + due_days and the day the access ends, before
--   today: of several access records those in status active decide, the latest of their expiry
--   days, none when one has none; the latest expiry of all of them when none is active), as
--   they stood on the day today (access granted and completions after it do not count yet;
--   access statuses and expiry days, group membership and pass marks are the current ones). overdue_share = overdue / required. Most overdue first. Days are UTC
--   calendar days. Groups that share a name have their id added to it ("Team A (group 12)"), so
--   that their rows and bars are told apart. With group_id, only that group and its subgroups
--   (the groups of the compliance query's people in scope), each still with its direct members.
-- param today date = today: Reference day (UTC; everything as it stood that day but what the portal gives only as it is now: access statuses and expiry days, group membership, pass marks and the roster).
-- param product_ids int_list = []: Required products (empty = each product a user has access to).
-- param group_id int = null: Only people of this group and its subgroups (empty = everyone).
-- param due_days int = 30 (0..36500): Days after access is granted by which a product must be completed.
-- param excluded_statuses string_list = inactive,suspended,disabled,deactivated,deleted,archived,terminated,leaver,left: People whose roster user_status is one of these are left out, as no longer to be followed up (case and surrounding white space ignored; empty = no one is left out).
-- label group_name: Group (direct members only)
-- label required: Required items (direct members)
-- label completed: Completed (direct members)
-- label overdue: Overdue (direct members)
-- people: grouped
WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
  SELECT grp_id, grp_id FROM grp
  UNION -- UNION, not UNION ALL: a cycle in grp_parent_id ends instead of looping
  SELECT tree.ancestor_id, grp.grp_id
  FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
),
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
-- People the roster marks as gone (user_status one of excluded_statuses) are left out of the
-- required products: they are no one's to follow up. People without a roster row or status stay.
left_people AS (
  SELECT user_id FROM "user"
  WHERE lower(regexp_replace(user_status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))
        IN (SELECT lower(regexp_replace(status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))
            FROM unnest($excluded_statuses) AS s(status))
),
-- With group_id, the groups of its subtree only, as compliance-summary's group rows: their direct
-- members are the people compliance.sql has in scope, and a group outside it is not shown.
members AS (
  SELECT DISTINCT user_grp_user_id AS user_id, user_grp_grp_id AS grp_id
  FROM user_grp
  WHERE user_grp_user_id IS NOT NULL AND user_grp_grp_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM left_people WHERE left_people.user_id = user_grp_user_id)
    AND ($group_id IS NULL
         OR user_grp_grp_id IN (SELECT descendant_id FROM tree WHERE ancestor_id = $group_id))
),
-- As it stood on today, as in compliance.sql: access granted after today is not there yet, and a
-- completion counts from its day.
access AS (
  SELECT product_access_user_id AS user_id, product_access_product_id AS product_id,
         min(product_access_created_date) AS granted,
         -- The day the access ends, as compliance.sql's access_expires: of several records
         -- those in status active decide, and one without an expiry keeps it open.
         CASE WHEN coalesce(bool_or(product_access_status = 'active'
                                    AND product_access_expired_date IS NULL), false) THEN NULL
              WHEN coalesce(bool_or(product_access_status = 'active'), false)
              THEN max(product_access_expired_date) FILTER (WHERE product_access_status = 'active')
              ELSE max(product_access_expired_date) END AS expires
  FROM product_access
  WHERE product_access_user_id IS NOT NULL AND product_access_product_id IS NOT NULL
    AND (product_access_created_date IS NULL
         OR CAST(product_access_created_date AS DATE) <= $today)
  GROUP BY product_access_user_id, product_access_product_id
),
pairs AS (
  SELECT users.user_id, required.product_id
  FROM (SELECT DISTINCT user_id FROM members) AS users
  CROSS JOIN (SELECT DISTINCT unnest($product_ids) AS product_id) AS required
  WHERE len($product_ids) > 0
  UNION
  SELECT user_id, product_id FROM access WHERE len($product_ids) = 0
),
completed AS (
  -- Completed as the compliance query means it: a completed take the portal does not call
  -- failed that reaches the pass mark.
  SELECT DISTINCT take_user_id AS user_id, take_product_id AS product_id
  FROM take
  LEFT JOIN product ON product.product_id = take.take_product_id
  WHERE CAST(take_completed_date AS DATE) <= $today
    AND lower(regexp_replace(take_status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g')) IS DISTINCT FROM 'failed'
    AND (coalesce(product.product_min_score, 0) = 0 OR take_score IS NULL
         OR take_score >= product.product_min_score)
),
states AS (
  SELECT pairs.user_id,
         completed.user_id IS NOT NULL AS done,
         least(CAST(access.granted AS DATE) + CAST($due_days AS INTEGER),
               CAST(access.expires AS DATE)) AS due_date
  FROM pairs
  LEFT JOIN access ON access.user_id = pairs.user_id AND access.product_id = pairs.product_id
  LEFT JOIN completed
    ON completed.user_id = pairs.user_id AND completed.product_id = pairs.product_id
)
SELECT
  named.grp_id AS group_id,
  named.group_name,
  count(*) AS required,
  count(*) FILTER (WHERE states.done) AS completed,
  count(*) FILTER (WHERE NOT states.done AND states.due_date < $today) AS overdue,
  count(*) FILTER (WHERE NOT states.done AND states.due_date < $today) / count(*) AS overdue_share
FROM states
JOIN members ON members.user_id = states.user_id
JOIN named ON named.grp_id = members.grp_id
GROUP BY named.grp_id, named.group_name
ORDER BY overdue DESC, group_id
