-- title: Group tree with user counts
-- description: One row per group: its parent, depth (0 for a top group) and path of names from
--   the top ("Company > Sales > North"), how many groups lie below it, the distinct users linked
--   to it directly, and the distinct users of the group and all its subgroups (a user linked to
--   several of them counts once). A group whose parent is not in the data counts as a top group.
--   Groups caught in a grp_parent_id cycle have no depth or path (they cannot be placed under a
--   top group); their totals still count every group of the cycle. Rows follow the tree, each
--   group under its parent, siblings in alphabetical order of their names (case, accents and
--   surrounding white space ignored); groups caught in a cycle come last.
-- param group_id int = null: Only this group and its subgroups (empty = every group).
WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
  SELECT grp_id, grp_id FROM grp
  UNION -- UNION, not UNION ALL: a cycle in grp_parent_id ends instead of looping
  SELECT tree.ancestor_id, grp.grp_id
  FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
),
-- sort_path orders the tree as people read names, each group under its parent: per level, the
-- ICU "en" sort key (the Unicode root order) of the name without the white space around it,
-- case and accents, as compliance.sql sorts people's names. A list, not the path's text, so that
-- " > " never sorts against a character of a sibling's name.
placed(grp_id, depth, path, sort_path) AS (
  SELECT grp_id, 0, grp_name,
         [icu_sort_key(coalesce(lower(strip_accents(regexp_replace(grp_name, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))), ''), 'en')]
  FROM grp
  WHERE grp_parent_id IS NULL OR grp_parent_id NOT IN (SELECT grp_id FROM grp)
  UNION ALL -- a walk down from top groups cannot meet a cycle: each group has one parent
  SELECT grp.grp_id, placed.depth + 1, placed.path || ' > ' || grp.grp_name,
         list_append(placed.sort_path, icu_sort_key(coalesce(lower(strip_accents(
           regexp_replace(grp.grp_name, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g'))), ''), 'en'))
  FROM placed JOIN grp ON grp.grp_parent_id = placed.grp_id
),
direct AS (
  SELECT user_grp_grp_id AS grp_id, count(DISTINCT user_grp_user_id) AS users
  FROM user_grp
  GROUP BY user_grp_grp_id
),
total AS (
  SELECT tree.ancestor_id AS grp_id, count(DISTINCT user_grp.user_grp_user_id) AS users
  FROM tree JOIN user_grp ON user_grp.user_grp_grp_id = tree.descendant_id
  GROUP BY tree.ancestor_id
),
below AS (
  SELECT ancestor_id AS grp_id, count(*) FILTER (WHERE descendant_id <> ancestor_id) AS groups
  FROM tree
  GROUP BY ancestor_id
)
SELECT
  grp.grp_id AS group_id,
  grp.grp_name AS group_name,
  grp.grp_parent_id AS parent_id,
  placed.depth,
  placed.path,
  below.groups AS subgroups,
  coalesce(direct.users, 0) AS direct_users,
  coalesce(total.users, 0) AS total_users
FROM grp
LEFT JOIN placed ON placed.grp_id = grp.grp_id
LEFT JOIN below ON below.grp_id = grp.grp_id
LEFT JOIN direct ON direct.grp_id = grp.grp_id
LEFT JOIN total ON total.grp_id = grp.grp_id
WHERE $group_id IS NULL
   OR grp.grp_id IN (SELECT descendant_id FROM tree WHERE ancestor_id = $group_id)
ORDER BY placed.sort_path NULLS LAST, placed.path NULLS LAST, grp.grp_id
