/** What the project's own catalog holds: the names of reports/*.json and queries/*.sql, sorted. */

export const SHIPPED_REPORTS = [
  "completion-overview",
  "data-freshness",
  "score-analysis",
  "team-compliance",
  "weekly-compliance",
] as const;

export const SHIPPED_QUERIES = [
  "access",
  "attempts",
  "completion",
  "compliance",
  "compliance-summary",
  "compliance-trend",
  "freshness",
  "group-managers",
  "group-rollup",
  "overdue-by-group",
  "score-distribution",
  "score-histogram",
  "time-to-complete",
] as const;
