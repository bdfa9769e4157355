-- title: Group managers: people and the admins of their groups
-- description: One row per person, group and admin of that group: who manages whom, with the
--   manager's e-mail from the roster (table "user"), so a report can be mailed to each manager
--   with only their own people ("splitBy": "manager_email").
--   A group admin is a user linked to the group with user_grp_group_admin = 1; the people are
--   the group's other members. A group without an admin, or an admin without an e-mail in the
--   roster, gives rows with an empty manager_email (mailed to the report's own recipients).
--   Names and e-mails are empty until a roster is imported.
-- param group_id int = null: Only this group (empty = every group).
WITH members AS (
  SELECT DISTINCT user_grp_grp_id AS grp_id, user_grp_user_id AS user_id
  FROM user_grp
  WHERE user_grp_user_id IS NOT NULL AND user_grp_grp_id IS NOT NULL
    AND ($group_id IS NULL OR user_grp_grp_id = $group_id)
),
admins AS (
  SELECT DISTINCT user_grp_grp_id AS grp_id, user_grp_user_id AS admin_id
  FROM user_grp
  WHERE user_grp_group_admin = 1 AND user_grp_user_id IS NOT NULL
)
SELECT
  members.user_id,
  person.firstname,
  person.lastname,
  person.email,
  members.grp_id,
  grp.grp_name,
  admins.admin_id AS manager_user_id,
  -- Trimmed as the mail split trims (src/text/white-space.ts): an e-mail of a tab alone is none.
  nullif(regexp_replace(manager.email, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'), '') AS manager_email
FROM members
LEFT JOIN admins ON admins.grp_id = members.grp_id AND admins.admin_id <> members.user_id
LEFT JOIN "user" AS person ON person.user_id = members.user_id
LEFT JOIN "user" AS manager ON manager.user_id = admins.admin_id
LEFT JOIN grp ON grp.grp_id = members.grp_id
WHERE NOT EXISTS (
  -- An admin is not one of the people of their own group.
  SELECT 1 FROM admins AS own WHERE own.grp_id = members.grp_id AND own.admin_id = members.user_id
)
ORDER BY manager_email NULLS LAST, members.grp_id, members.user_id, manager_user_id
