/**
 * Text into HTML and SVG: every value of a report comes from the portal or HR files, so a name
 * like `<script>` must show as text, in element content and in attribute values alike.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` with &, <, >, " and ' replaced by entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
