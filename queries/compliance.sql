-- title: Compliance: required products per user
-- description: One row per user and required product, with where the user stands.
--   Users: with group_id, the users linked to that group or any of its subgroups; without it,
--   every user seen in user_grp, product_access or take. Required products: with product_ids,
--   every listed product for every user (whether or not the user has an access record);
--   without it, each product the user holds an access record for.
--   access_state: "active" if an access record is in status active and not past its expiry day;
--   else "expired" if one is in status expired or past its expiry day; else "inactive" if there
--   is a record; else "none".
--   status: "completed" if a take has a completion date; else "access expired" if access_state is
--   expired; else "in progress" if there is a take; else "not started".
--   due_date: the earlier of (first access granted day + due_days) and the latest access expiry
--   day; either one alone when the other is missing; empty without an access record.
--   days_overdue: today - due_date when the product is not completed and due_date is before
--   today; 0 when completed or not yet due; empty when there is no due date.
--   last_activity: the latest take start or completion.
--   Days are UTC calendar days.
-- param today date = today: Reference day (UTC).
-- param product_ids int_list = []: Required products (empty = each product a user has access to).
-- param group_id int = null: Only users of this group and its subgroups (empty = every user).
-- param due_days int = 30: Days after access is granted by which a product must be completed.
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
pairs AS (
  SELECT scope_users.user_id, required.product_id
  FROM scope_users CROSS JOIN (SELECT DISTINCT unnest($product_ids) AS product_id) AS required
  WHERE len($product_ids) > 0 AND scope_users.user_id IS NOT NULL
  UNION
  SELECT product_access_user_id, product_access_product_id
  FROM product_access JOIN scope_users ON scope_users.user_id = product_access_user_id
  WHERE len($product_ids) = 0 AND product_access_product_id IS NOT NULL
),
access AS (
  SELECT product_access_user_id AS user_id, product_access_product_id AS product_id,
         coalesce(bool_or(product_access_status = 'active'
                          AND (product_access_expired_date IS NULL
                               OR CAST(product_access_expired_date AS DATE) >= $today)), false)
           AS has_active,
         coalesce(bool_or(product_access_status = 'expired'
                          OR CAST(product_access_expired_date AS DATE) < $today), false)
           AS has_expired,
         min(product_access_created_date) AS access_granted,
         max(product_access_expired_date) AS access_expires
  FROM product_access
  GROUP BY product_access_user_id, product_access_product_id
),
takes AS (
  SELECT take_user_id AS user_id, take_product_id AS product_id,
         count(*) AS attempts,
         min(take_completed_date) AS completed_at,
         max(take_score) FILTER (WHERE take_completed_date IS NOT NULL) AS best_score,
         max(greatest(take_started_date, take_completed_date)) AS last_activity
  FROM take
  GROUP BY take_user_id, take_product_id
),
user_groups AS (
  SELECT user_grp_user_id AS user_id, string_agg(DISTINCT grp_name, ', ' ORDER BY grp_name) AS groups
  FROM user_grp JOIN grp ON grp.grp_id = user_grp.user_grp_grp_id
  GROUP BY user_grp_user_id
),
states AS (
  SELECT pairs.user_id, pairs.product_id,
         CASE WHEN access.has_active THEN 'active'
              WHEN access.has_expired THEN 'expired'
              WHEN access.user_id IS NOT NULL THEN 'inactive'
              ELSE 'none' END AS access_state,
         access.access_granted, access.access_expires,
         least(CAST(access.access_granted AS DATE) + CAST($due_days AS INTEGER),
               CAST(access.access_expires AS DATE)) AS due_date,
         coalesce(takes.attempts, 0) AS attempts,
         takes.completed_at, takes.best_score, takes.last_activity
  FROM pairs
  LEFT JOIN access ON access.user_id = pairs.user_id AND access.product_id = pairs.product_id
  LEFT JOIN takes ON takes.user_id = pairs.user_id AND takes.product_id = pairs.product_id
)
SELECT
  states.user_id,
  user_groups.groups,
  states.product_id,
  coalesce(product.product_i18n_title, product.product_i18n_name) AS product_title,
  CASE WHEN states.completed_at IS NOT NULL THEN 'completed'
       WHEN states.access_state = 'expired' THEN 'access expired'
       WHEN states.attempts > 0 THEN 'in progress'
       ELSE 'not started' END AS status,
  states.access_state,
  states.access_granted,
  states.access_expires,
  states.due_date,
  CASE WHEN states.due_date IS NULL THEN NULL
       WHEN states.completed_at IS NOT NULL OR states.due_date >= $today THEN 0
       ELSE $today - states.due_date END AS days_overdue,
  states.attempts,
  states.best_score,
  states.completed_at,
  states.last_activity
FROM states
LEFT JOIN user_groups ON user_groups.user_id = states.user_id
LEFT JOIN product ON product.product_id = states.product_id
ORDER BY states.user_id, states.product_id
