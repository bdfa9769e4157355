/** The `code` of a Node system error (ENOENT, EACCES, ...), if `error` carries one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
