-- title: Compliance trend: completion and overdue week by week
-- description: One row per week for the last weeks weeks, the latest ending today: the required
--   products, completed and overdue as they stood at the end of that week (week is its last day),
--   computed from the dates in the data. An access record counts from the day it was granted
--   (product_access_created_date; one without that date counts in every week), a completion from
--   its day, and due dates from the access records granted by then; the rules are those of the
--   compliance query (a completed take counts when it passes; one whose take_status is "failed"
--   never does, whatever the pass mark). Group membership and status
--   changes have no dates in the data: today's are used for every week. The latest row is
--   compliance-summary's overall row for the same today. completion_rate = completed / required.
-- param today date = today: Reference day (UTC); the last week ends on it.
-- param weeks int = 12 (1..520): How many weeks to show.
-- param product_ids int_list = []: Required products (empty = each product a person has access to).
-- param group_id int = null: Only people of this group and its subgroups (empty = everyone).
-- param due_days int = 30 (0..36500): Days after access is granted by which a product must be completed.
-- param excluded_statuses string_list = inactive,suspended,disabled,deactivated,deleted,archived,terminated,leaver,left: People whose roster user_status is one of these are left out, as no longer to be followed up (case and surrounding white space ignored; empty = no one is left out).
-- label week: Week ending
-- label required: Required items
WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
  SELECT grp_id, grp_id FROM grp
  UNION -- UNION, not UNION ALL: a cycle in grp_parent_id ends instead of looping
  SELECT tree.ancestor_id, grp.grp_id
  FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
),
weeks AS (
  SELECT $today - CAST(7 * i AS INTEGER) AS week
  FROM range(CASE WHEN $weeks >= 1 THEN $weeks
                  ELSE error('parameter weeks must be at least 1') END) AS t(i)
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
weekly_access AS (
  SELECT weeks.week, product_access_user_id AS user_id, product_access_product_id AS product_id,
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
  FROM weeks
  JOIN product_access
    ON product_access_created_date IS NULL
    OR CAST(product_access_created_date AS DATE) <= weeks.week
  WHERE product_access_product_id IS NOT NULL
  GROUP BY weeks.week, product_access_user_id, product_access_product_id
),
weekly_pairs AS (
  SELECT weeks.week, followed_users.user_id, required.product_id
  FROM weeks
  CROSS JOIN followed_users
  CROSS JOIN (SELECT DISTINCT unnest($product_ids) AS product_id) AS required
  WHERE len($product_ids) > 0 AND followed_users.user_id IS NOT NULL
  UNION
  SELECT weekly_access.week, weekly_access.user_id, weekly_access.product_id
  FROM weekly_access JOIN followed_users ON followed_users.user_id = weekly_access.user_id
  WHERE len($product_ids) = 0
),
passes AS (
  SELECT take_user_id AS user_id, take_product_id AS product_id,
         min(CAST(take_completed_date AS DATE)) AS passed_on
  FROM take
  LEFT JOIN product ON product.product_id = take.take_product_id
  WHERE take_completed_date IS NOT NULL
    AND lower(regexp_replace(take_status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g')) IS DISTINCT FROM 'failed'
    AND (coalesce(product.product_min_score, 0) = 0 OR take_score IS NULL
         OR take_score >= product.product_min_score)
  GROUP BY take_user_id, take_product_id
),
items AS (
  SELECT weekly_pairs.week,
         coalesce(passes.passed_on <= weekly_pairs.week, false) AS completed,
         weekly_access.due_date < weekly_pairs.week AS due
  FROM weekly_pairs
  LEFT JOIN weekly_access
    ON weekly_access.week = weekly_pairs.week
    AND weekly_access.user_id = weekly_pairs.user_id
    AND weekly_access.product_id = weekly_pairs.product_id
  LEFT JOIN passes
    ON passes.user_id = weekly_pairs.user_id AND passes.product_id = weekly_pairs.product_id
)
SELECT
  weeks.week,
  count(*) FILTER (WHERE items.completed) / nullif(count(items.week), 0) AS completion_rate,
  count(*) FILTER (WHERE NOT items.completed AND items.due) AS overdue,
  count(*) FILTER (WHERE items.completed) AS completed,
  count(items.week) AS required
FROM weeks
LEFT JOIN items ON items.week = weeks.week
GROUP BY weeks.week
ORDER BY weeks.week
