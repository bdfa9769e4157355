-- title: Completion by product, for all users and per group
-- description: One row per product for all users (group_id empty, group_name "(all users)"),
--   then one row per group and product, where a group counts the users of all its subgroups
--   (each user once). Enrolled users: users with an access record of any status, or a take, for
--   the product. Active users: enrolled users with an access record in status "active". Started:
--   enrolled users with at least one take. Completed: with at least one take that has a
--   completion date (take_status values beyond "in_progress" are not documented, so the date is
--   the signal). completion_rate = completed / enrolled. avg_score and median_score are over each
--   completed user's best score on a completed take. passed_users: completed users with a
--   completed take that passes as in the compliance query (take_status not "failed", case and
--   surrounding white space ignored, and: no pass mark, product_min_score empty or 0; or the
--   take has no score; or its score reaches the pass mark);
--   pass_rate = passed / completed. min_score is the product's pass mark (product_min_score;
--   empty or 0: none), not a score anyone reached. Groups appear only for products one of their users is
--   enrolled in; groups that share a name have their id added to it ("Team A (group 12)"), and
--   products that share a title theirs ("Fire safety (product 2)"), so that their rows and chart
--   cells are told apart. As in the compliance query, everything is as it stood on the day today:
--   access records granted after it are left out (one without a granted date counts), and so are
--   takes begun after it (by their earliest date: start, completion or creation); a completion
--   after it has not happened yet, so its take is started, not completed, with no score. Access
--   statuses (active_users), group membership and pass marks are the current ones.
-- label completed_users: Completed (any score)
-- label completion_rate: Completion rate (any score)
-- label passed_users: Passed
-- label pass_rate: Pass rate (of completed)
-- label min_score: Pass mark
-- param today date = today: Reference day (UTC; everything as it stood that day but what the portal gives only as it is now: access statuses and expiry days, group membership, pass marks and the roster).
-- param product_ids int_list = []: Only these products (empty = every product).
-- param group_id int = null: Only this group and its subgroups, without the all-users rows (empty = all).
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
-- As it stood on today, as in compliance.sql: an access record granted after today is not there
-- yet (one without that date always is); a take counts from its earliest date and its completion
-- from its day. Statuses have no dates: today's are used.
dated_takes AS (
  SELECT take_user_id, take_product_id, take_score, take_status,
         CASE WHEN CAST(take_completed_date AS DATE) <= $today THEN take_completed_date END
           AS take_completed_date
  FROM take
  WHERE coalesce(CAST(least(take_started_date, take_completed_date, take_created_date) AS DATE)
                   <= $today, true)
),
facts AS (
  SELECT product_access_user_id AS user_id, product_access_product_id AS product_id,
         coalesce(product_access_status = 'active', false) AS active,
         false AS started, false AS completed, NULL::BIGINT AS score, false AS passed
  FROM product_access
  WHERE product_access_created_date IS NULL
     OR CAST(product_access_created_date AS DATE) <= $today
  UNION ALL
  -- Passed as the compliance query means it: a completed take the portal does not call failed
  -- that reaches the pass mark.
  SELECT take_user_id, take_product_id, false, true, take_completed_date IS NOT NULL,
         CASE WHEN take_completed_date IS NOT NULL THEN take_score END,
         take_completed_date IS NOT NULL
           AND lower(regexp_replace(take_status, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g')) IS DISTINCT FROM 'failed'
           AND (coalesce(product.product_min_score, 0) = 0 OR take_score IS NULL
                OR take_score >= product.product_min_score)
  FROM dated_takes AS take
  LEFT JOIN product ON product.product_id = take.take_product_id
),
user_product AS (
  SELECT user_id, product_id, bool_or(active) AS active, bool_or(started) AS started,
         bool_or(completed) AS completed, max(score) AS best_score, bool_or(passed) AS passed
  FROM facts
  WHERE user_id IS NOT NULL AND product_id IS NOT NULL
    AND (len($product_ids) = 0 OR list_contains($product_ids, product_id))
  GROUP BY user_id, product_id
),
members AS (
  SELECT DISTINCT tree.ancestor_id AS group_id, user_grp.user_grp_user_id AS user_id
  FROM tree JOIN user_grp ON user_grp.user_grp_grp_id = tree.descendant_id
  WHERE user_grp.user_grp_user_id IS NOT NULL
    AND ($group_id IS NULL
         OR tree.ancestor_id IN (SELECT descendant_id FROM tree WHERE ancestor_id = $group_id))
),
scoped AS (
  SELECT NULL::BIGINT AS group_id, user_product.* FROM user_product WHERE $group_id IS NULL
  UNION ALL
  SELECT members.group_id, user_product.*
  FROM members JOIN user_product ON user_product.user_id = members.user_id
),
-- The median is the middle of each (group, product)'s sorted scores, found with window functions:
-- quantile_cont over hundreds of thousands of groups keeps every score in memory and fails on a
-- portal of 100k users under the default memory limit, while a sort can spill to disk.
ranked AS (
  SELECT group_id, product_id, best_score,
         row_number() OVER (PARTITION BY group_id, product_id ORDER BY best_score) AS position,
         count(*) OVER (PARTITION BY group_id, product_id) AS scored
  FROM scoped
  WHERE completed AND best_score IS NOT NULL
),
medians AS (
  -- The one middle score, or the mean of the two middle ones (as quantile_cont(0.5) would give).
  SELECT group_id, product_id, avg(best_score::DOUBLE) AS median_score
  FROM ranked
  WHERE position IN ((scored + 1) // 2, (scored + 2) // 2)
  GROUP BY group_id, product_id
),
totals AS (
  SELECT group_id, product_id,
         count(*) AS enrolled_users,
         count(*) FILTER (WHERE active) AS active_users,
         count(*) FILTER (WHERE started) AS started_users,
         count(*) FILTER (WHERE completed) AS completed_users,
         avg(best_score) FILTER (WHERE completed) AS avg_score,
         count(*) FILTER (WHERE passed) AS passed_users
  FROM scoped
  GROUP BY group_id, product_id
)
SELECT
  totals.group_id,
  CASE WHEN totals.group_id IS NULL THEN '(all users)' ELSE named.group_name END AS group_name,
  totals.product_id,
  coalesce(
    product.shown_title,
    CASE WHEN product.product_id IS NULL THEN '(product ' || totals.product_id || ', no longer in the portal)' END
  ) AS product_title,
  totals.enrolled_users,
  totals.active_users,
  totals.started_users,
  totals.completed_users,
  totals.completed_users / totals.enrolled_users AS completion_rate,
  totals.avg_score,
  medians.median_score,
  product.product_min_score AS min_score,
  totals.passed_users,
  totals.passed_users / nullif(totals.completed_users, 0) AS pass_rate
FROM totals
LEFT JOIN medians
  ON medians.group_id IS NOT DISTINCT FROM totals.group_id
  AND medians.product_id = totals.product_id
LEFT JOIN named ON named.grp_id = totals.group_id
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
) AS product ON product.product_id = totals.product_id
ORDER BY totals.group_id NULLS FIRST, totals.product_id
